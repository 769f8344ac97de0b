// SPDX-License-Identifier: MIT
/*
 * ehdecode - decode EventHeader and tracepoint events from trace files
 *
 * Option parsing and messages only: reading is libehdecode's reader,
 * output its writer.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include <ehdecode/reader.h>
#include <ehdecode/session.h>
#include <ehdecode/writer.h>

#include "live.h"
#include "output.h"
#include "cli.h"
#include "report.h"

static const char *prog = "ehdecode";

static void usage(FILE *f)
{
	fprintf(f,
"Usage: %s [OPTION]... FILE...\n"
"  or:  %s -e SPEC [-e SPEC]... [OPTION]... [-- COMMAND [ARG]...]\n"
"Decode the events of trace files, or collect them live: EventHeader events\n"
"(user_events written with libeventheader) and classic tracepoints.\n"
"\n"
"Live (needs root, or CAP_PERFMON and access to tracefs): the events of the\n"
"tracepoints SPEC names, from every process, as they come, until Ctrl-C or\n"
"until COMMAND (started once collection is armed) exits. SPEC is\n"
"  Provider_L4K1, Provider_L5K0Ggroup  an EventHeader tracepoint; registered\n"
"                       if it does not exist yet, so no event is missed\n"
"  Provider             every tracepoint of that provider, also new ones\n"
"  system:event         any tracepoint (sched:sched_process_exec)\n"
"  -e, --event=SPEC     collect SPEC (repeatable)\n"
"      --filter=EXPR    kernel filter on EventHeader tracepoints, on the\n"
"                       fields level, opcode, id, tag, version and\n"
"                       eventheader_flags: \"id == 7 && opcode != 2\"\n"
"      --buffer-size=KiB  ring buffer per CPU (default 1024)\n"
"      --duration=SECONDS  stop after SECONDS (2, 0.5), as a signal does\n"
LIVE_HELP_AIM
"      --spool-size=SIZE  how much collected data may wait for decoding in\n"
"                       memory (default 64M, with a K, M or G suffix)\n"
LIVE_HELP_SYSTEM
"Any SPEC followed by /stacks records stacks with its events. Events lost\n"
"because a ring was full are counted on standard error.\n"
"\n"
"Inputs, recognised by their content:\n"
"  perf.data from \"perf record\", normal or pipe mode, either byte order,\n"
"  compressed or not (perf record -z); interceptor captures (.dat);\n"
"  nettrace files (.nettrace, versions 4 to 6, and .netperf, version 3);\n"
"  Heph traces (the Heph runtime's trace format, .bin.log).\n"
"  FILE \"-\" is standard input (perf.data in pipe mode: perf record -o -).\n"
"\n"
"Options:\n"
"  -F, --format=FORMAT  json   one JSON document {\"FILE\": [event, ...]}\n"
"                              (the default; the reference perf-decode's shape)\n"
"                       jsonl  one event object per line, for jq\n"
"                       text   one line per event\n"
"                       nettrace  a nettrace v6 file (for PerfView and\n"
"                              TraceEvent); needs -o or a redirected output\n"
"                       chrome  Chrome / Perfetto trace JSON, for\n"
"                              ui.perfetto.dev and chrome://tracing:\n"
"                              activities (start to stop) as slices, other\n"
"                              events as instants, fields as args\n"
"                       heph   a Heph trace (an activity's start and stop\n"
"                              become one event with a duration; pid and\n"
"                              tid become stream and substream ids); needs\n"
"                              -o or a redirected output\n"
"                       csv    one row per event (RFC 4180): time, cpu, pid,\n"
"                              tid, provider, event, then name,value pairs\n"
"                              of its fields (struct.field, array.0, ...)\n"
"  -o, --output=FILE    write to FILE instead of standard output; it is\n"
"                       replaced only when the run succeeds (or when a\n"
"                       live collection finds no room: it keeps what fit)\n"
"  -m, --meta=LIST      what to show under \"meta\", comma-separated from\n"
"                       n time cpu pid tid id version level keyword opcode\n"
"                       tag activity relatedActivity provider event options\n"
"                       flags common comm stack, or default\n"
"                       (n..relatedActivity), all, none; \"common\" adds the\n"
"                       common_* fields of classic tracepoints, \"comm\"\n"
"                       thread and process names (from perf's COMM records,\n"
"                       nettrace threads), \"stack\" the stack of each event\n"
"                       as \"module+0xOFFSET function+0xOFF\", innermost\n"
"                       first (functions from the modules' ELF symbols)\n"
"      --system         perf input: also processes and their mappings\n"
"                       (Universal.System events), CPU samples as\n"
"                       Universal.Events \"cpu\", and sched_switch as\n"
"                       \"cswitch\" with the time the thread was off the CPU\n"
"                       (on with --cpu-sampling or --off-cpu)\n"
"      --no-demangle    stack frames with C++ and Rust names as the symbol\n"
"                       tables have them (by default: demangled)\n"
"      --debug-dir=DIR  separate debug files under DIR/.build-id/NN/REST.debug\n"
"                       and DIR/PATH (default /usr/lib/debug, or\n"
"                       $EHD_DEBUG_DIR)\n"
"  -s, --sort=ORDER     time  time order, as perf sorts it (by rounds) (default)\n"
"                       file  keep the order of the file\n"
"      --field-tags     name fields that have a tag \"name;tag=0xN\"\n"
"      --strict         nettrace input: also refuse what TraceEvent (PerfView)\n"
"                       refuses or reads wrongly (checks a file for PerfView);\n"
"                       nettrace and Heph: strings that are not well-formed\n"
"                       UTF-8\n"
"      --utf8=MODE      JSON and text: reference (the default) writes strings\n"
"                       as the reference decoder does, which an input that\n"
"                       is not UTF-8 can make ill-formed; strict writes\n"
"                       U+FFFD for what is ill-formed (counted on standard\n"
"                       error). Chrome, Heph and nettrace are always strict\n"
"      --stats          say on standard error how many events and bytes\n"
"                       were written (nettrace: bytes of headers and payloads,\n"
"                       and how many events went without being decoded)\n"
"                       and, for system traces, how many stacks are broken\n"
"  -h, --help           show this help and exit\n"
"  -V, --version        show the version and exit\n"
"\n"
"Each event is an object {\"n\":\"Provider:Event\", fields..., \"meta\":{...}};\n"
"the JSON document starts with a UTF-8 byte order mark unless written to a\n"
"terminal.\n"
"\n"
"Exit status: 0 when every input was decoded completely; 1 when an input\n"
"could not be read, was damaged (the events before the damage are written,\n"
"then \"%s: FILE: offset N: reason\") or held damaged events; 2 for a\n"
"usage error. Events the kernel reported lost are counted on standard\n"
"error.\n",
		prog, prog, prog);
}

/* A usage error: one line saying what is wrong, one hint; exit code 2. */
static int usage_error(const char *what, const char *arg)
{
	return cli_usage_error(prog, what, arg);
}

/* "unknown format (json, jsonl, ...)": the library's formats. */
static const char *unknown_format(void)
{
	static char what[256];
	const char *name;
	size_t n;
	int f;

	n = (size_t)snprintf(what, sizeof(what), "unknown format (");
	for (f = 1; (name = ehd_writer_format_name(f)) && n < sizeof(what); f++)
		n += (size_t)snprintf(what + n, sizeof(what) - n, "%s%s",
				      f > 1 ? ", " : "", name);
	if (n < sizeof(what))
		snprintf(what + n, sizeof(what) - n, ")");
	return what;
}

struct options {
	struct live_opts *live;	/* -e, --filter, --buffer-size */
	int format;
	unsigned int props;	/* the format's EHD_FORMAT_* */
	unsigned int meta;
	unsigned int reader_flags;
	unsigned int writer_flags;
	const char *output;
	int stats;
};

/*
 * Open one input and recognise it (its kind from its first bytes, its
 * headers read); NULL when it cannot be (said).
 */
static struct ehd_reader *open_input(const char *name, const struct options *o)
{
	struct ehd_reader *r = ehd_reader_new(o->reader_flags);
	uint64_t off = 0;
	int err;

	if (!r) {
		fprintf(stderr, "%s: %s\n", prog, strerror(errno));
		return NULL;
	}
	err = ehd_reader_open(r, name);
	if (err) {
		const char *why = ehd_reader_error(r, &off);

		if (err == -EBADMSG || err == -ENOTSUP || err == -EFBIG)
			fprintf(stderr, "%s: %s: offset %llu: %s\n", prog, name,
				(unsigned long long)off, why);
		else
			fprintf(stderr, "%s: %s: %s\n", prog, name, why);
		ehd_reader_free(r);
		return NULL;
	}
	/* Their events are typed by their own metadata: no bytes to map. */
	if ((o->props & EHD_FORMAT_RECORDS_ONLY) &&
	    (ehd_reader_kind(r) == EHD_INPUT_NETTRACE ||
	     ehd_reader_kind(r) == EHD_INPUT_HEPH)) {
		fprintf(stderr, "%s: %s: a %s input cannot be written as %s (read it with -F json, jsonl or text)\n",
			prog, name, ehd_reader_kind(r) == EHD_INPUT_HEPH ?
				    "Heph" : "nettrace",
			ehd_writer_format_name(o->format));
		ehd_reader_free(r);
		return NULL;
	}
	return r;
}

/*
 * Decode the open input @r into @w; returns 0, 1 if the input was not
 * right, or -1 when the output failed.
 */
static int decode(struct ehd_reader *r, const char *name,
		  struct ehd_writer *w)
{
	struct pollfd in = { STDIN_FILENO, POLLIN, 0 };
	const struct ehd_event *ev;
	bool stream = false;
	uint64_t off = 0, passed;
	int err, ret = 0, werr;
	struct stat st;

	/*
	 * Standard input from a pipe (ehrecord -o - | ehdecode -) is read as
	 * it comes: what is decoded goes out whenever no more is waiting.
	 */
	if (!strcmp(name, "-") && !fstat(STDIN_FILENO, &st) &&
	    (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)))
		stream = true;

	/* The trace info of a pipe comes with its first records. */
	err = ehd_reader_next(r, &ev);
	ehd_writer_begin_trace(w, strcmp(name, "-") ? name : "stdin",
			       ehd_reader_trace_info(r));
	for (; err > 0; err = ehd_reader_pass(r, w, &ev, &passed)) {
		/* (NULL: the reader wrote events to w itself) */
		werr = ev ? ehd_writer_event(w, ev) : 0;
		if (werr == -E2BIG && !ehd_writer_error(w, NULL))
			continue;	/* too large for the format: counted */
		if (werr < 0 && !ehd_writer_error(w, NULL))
			return -1;	/* ehd_writer_close() says why */
		if (werr < 0) {
			const char *why = ehd_writer_error(w, &off);

			fprintf(stderr, "%s: %s: offset %llu: %s\n", prog, name,
				(unsigned long long)off, why);
			ret = 1;
		}
		if (stream && poll(&in, 1, 0) == 0 && ehd_writer_flush(w))
			return -1;	/* ehd_writer_close() says why */
	}
	ehd_writer_end(w);
	if (err < 0) {
		const char *why = ehd_reader_error(r, &off);

		if (why)
			fprintf(stderr, "%s: %s: offset %llu: %s\n", prog, name,
				(unsigned long long)off, why);
		else
			fprintf(stderr, "%s: %s\n", prog, strerror(-err));
		ret = 1;
	}
	report_reader(prog, name, r, true);
	ehd_writer_add_lost(w, report_lost(r));
	return ret;
}

/*
 * Collect live into @w through @l until Ctrl-C or the command's end; @l
 * is the caller's to live_free() (started or not).
 */
static int decode_live(const struct options *o, struct live *l,
		       struct ehd_writer *w, char **command)
{
	struct live_opts *lo = o->live;
	int ret;

	lo->prog = prog;
	lo->command = command;	/* as live_check() took it */
	ret = live_start(l, lo);
	if (!ret)
		ret = live_run_command(l);
	if (!ret)
		ret = live_write_events(l, &w, o->reader_flags);
	return ret;
}

static int run(int argc, char **argv, struct live_opts *live)
{
	enum { OPT_FIELD_TAGS = 256, OPT_STATS, OPT_STRICT, OPT_SYSTEM,
	       OPT_UTF8, OPT_NO_DEMANGLE, OPT_DEBUG_DIR };
	static const struct option longopts[] = {
		LIVE_LONGOPTS,
		{ "format", required_argument, NULL, 'F' },
		{ "output", required_argument, NULL, 'o' },
		{ "meta", required_argument, NULL, 'm' },
		{ "sort", required_argument, NULL, 's' },
		{ "field-tags", no_argument, NULL, OPT_FIELD_TAGS },
		{ "stats", no_argument, NULL, OPT_STATS },
		{ "strict", no_argument, NULL, OPT_STRICT },
		{ "system", no_argument, NULL, OPT_SYSTEM },
		{ "no-demangle", no_argument, NULL, OPT_NO_DEMANGLE },
		{ "debug-dir", required_argument, NULL, OPT_DEBUG_DIR },
		{ "utf8", required_argument, NULL, OPT_UTF8 },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct options o = {
		.format = EHD_OUT_JSON,
		.meta = EHD_META_DEFAULT,
		.reader_flags = EHD_READER_SORT_TIME,
	};
	struct ehd_reader **inputs = NULL;
	struct out_file out = { .fd = -1 };
	struct ehd_writer_stats ws;
	struct ehd_writer *w;
	struct live l;
	bool started = false;	/* l to free */
	bool kept = false;	/* a failed run's file, complete */
	const char *why;
	int c, k, fd = STDOUT_FILENO, ret = 0, err, i;

	o.live = live;
	while ((c = getopt_long(argc, argv, LIVE_SHORTOPTS "F:o:m:s:hV", longopts,
				NULL)) != -1) {
		k = live_option(live, c, optarg, &why);
		if (k < 0)
			return usage_error(why, optarg);
		if (k)
			continue;
		switch (c) {
		case 'F':
			o.format = ehd_writer_format(optarg, &o.props);
			if (o.format < 0)
				return usage_error(unknown_format(), optarg);
			break;
		case 'o':
			o.output = optarg;
			break;
		case 'm':
			if (ehd_meta_parse(optarg, &o.meta))
				return usage_error("unknown name in --meta list", optarg);
			break;
		case 's':
			if (!strcmp(optarg, "time"))
				o.reader_flags |= EHD_READER_SORT_TIME;
			else if (!strcmp(optarg, "file"))
				o.reader_flags &= ~EHD_READER_SORT_TIME;
			else
				return usage_error("unknown sort order (time or file)",
						   optarg);
			break;
		case OPT_FIELD_TAGS:
			o.writer_flags |= EHD_WRITER_FIELD_TAGS;
			break;
		case OPT_STATS:
			o.stats = 1;
			break;
		case OPT_STRICT:
			o.reader_flags |= EHD_READER_STRICT;
			break;
		case OPT_SYSTEM:
			o.reader_flags |= EHD_READER_SYSTEM;
			break;
		case OPT_NO_DEMANGLE:
			o.reader_flags |= EHD_READER_RAW_NAMES;
			break;
		case OPT_DEBUG_DIR:
			/* where the library looks (it reads the variable) */
			if (!*optarg || setenv("EHD_DEBUG_DIR", optarg, 1))
				return usage_error("bad debug folder", optarg);
			break;
		case OPT_UTF8:
			if (!strcmp(optarg, "strict"))
				o.writer_flags |= EHD_WRITER_UTF8_STRICT;
			else if (strcmp(optarg, "reference"))
				return usage_error("unknown UTF-8 mode (reference or strict)",
						   optarg);
			break;
		default:
			return cli_common(c, prog, usage);
		}
	}
	if (live->hz || live->off_cpu) {
		o.reader_flags |= EHD_READER_SYSTEM;
		live->live = true;
	}
	if (!live->live && (live->filter || live->buffer || live->spool_mem ||
			    live->duration || live->npids || live->aim_command ||
			    live->children || live->ncpus))
		return usage_error("--filter, --buffer-size, --spool-size, --duration, -p, --children and -C need -e",
				   NULL);
	if (live->live &&
	    (why = live_check(live, optind < argc ? argv + optind : NULL)))
		return usage_error(why, NULL);
	if (optind == argc && !live->live)
		return usage_error("no input file (use - for standard input)", NULL);

	if ((o.props & EHD_FORMAT_BINARY) &&
	    (!o.output || !strcmp(o.output, "-")) && isatty(STDOUT_FILENO)) {
		char what[128];

		snprintf(what, sizeof(what),
			 "%s is binary: give -o FILE or redirect the output",
			 ehd_writer_format_name(o.format));
		return usage_error(what, NULL);
	}
	/*
	 * Every input opened and recognised before the output is made: a
	 * missing or foreign input changes no file and writes nothing.
	 */
	if (optind < argc && !live->live) {
		inputs = calloc((size_t)(argc - optind), sizeof(*inputs));
		if (!inputs) {
			fprintf(stderr, "%s: %s\n", prog, strerror(errno));
			return 1;
		}
		for (i = optind; i < argc; i++)
			if (!(inputs[i - optind] = open_input(argv[i], &o)))
				ret = 1;
		if (ret)
			goto done;
	}
	/*
	 * A signal ends a decoding (its temporary file deleted); it stops a
	 * live collection, which then completes its output.
	 */
	if (live->live)
		live_catch_signals();
	else
		out_die_on_signals();
	if (o.output && strcmp(o.output, "-")) {
		if (out_open(&out, o.output)) {
			fprintf(stderr, "%s: %s: %s\n", prog, o.output,
				strerror(errno));
			ret = 1;
			goto done;
		}
		fd = out.fd;
	}
	if (o.format == EHD_OUT_JSON) {
		o.writer_flags |= EHD_WRITER_SPACE;
		if (!isatty(fd))
			o.writer_flags |= EHD_WRITER_BOM;
	}
	w = ehd_writer_new(o.format, fd, o.writer_flags, o.meta);
	if (!w) {
		fprintf(stderr, "%s: %s\n", prog, strerror(errno));
		ret = 1;
		goto done;
	}
	if (live->live) {
		/* Live: what follows the options is the command to run. */
		err = decode_live(&o, &l, w,
				  optind < argc ? argv + optind : NULL);
		started = true;
		if (err)
			ret = 1;
		argc = optind;
	}
	for (i = optind; i < argc; i++) {
		err = decode(inputs[i - optind], argv[i], w);
		if (o.stats)
			report_details(prog, argv[i], inputs[i - optind]);
		if (err)
			ret = 1;
		if (err < 0)
			break;
	}
	err = ehd_writer_close(w);
	ehd_writer_stats(w, &ws);
	/*
	 * A live collection, complete up to where its file found no room, is
	 * kept (the one before as FILE.old), as ehrecord keeps it; a decoding
	 * of files can be done again.
	 */
	kept = err && started && ws.no_room && out.fd >= 0;
	if (kept)
		live_no_room(&l, w);
	else if (err && ws.no_room && out.fd < 0)
		fprintf(stderr, "%s: standard output: no room (%s): it ends, complete, after the first %llu events\n",
			prog, strerror(ws.no_room),
			(unsigned long long)ws.events);
	else if (err)
		fprintf(stderr, "%s: %s: %s\n", prog,
			o.output ? o.output : "standard output", strerror(-err));
	if (err)
		ret = 1;
	if (!err || kept)
		report_writer(prog, w, o.format, o.stats);
	ehd_writer_free(w);
done:
	if (out.fd >= 0 && ret && !kept) {
		out_abandon(&out);
	} else if (out.fd >= 0) {
		err = out_commit(&out, kept);
		if (err) {
			fprintf(stderr, "%s: %s: %s\n", prog, o.output,
				strerror(-err));
			ret = 1;
		}
	}
	if (started)
		live_free(&l);
	for (i = optind; inputs && i < argc; i++)
		ehd_reader_free(inputs[i - optind]);
	free(inputs);
	return ret;
}

int main(int argc, char **argv)
{
	return live_main(argc, argv, run);
}
