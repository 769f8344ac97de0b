// SPDX-License-Identifier: MIT
/*
 * ehrecord - record EventHeader and tracepoint events to a nettrace v6 or
 * perf.data file
 *
 * Option parsing and messages only: collection is libehdecode's session,
 * output its writer (nettrace) or the session's own stream (perf.data).
 * The options that record nothing are list.c (--list), check.c (--check)
 * and register.c (--register, --unregister).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include <ehdecode/reader.h>
#include <ehdecode/session.h>
#include <ehdecode/writer.h>

#include "check.h"
#include "list.h"
#include "live.h"
#include "output.h"
#include "register.h"
#include "cli.h"
#include "report.h"

static const char *prog = "ehrecord";

/* How much may wait for conversion on disk, beside the output. */
#define SPOOL_DISK_DEFAULT (1ull << 30)

static void usage(FILE *f)
{
	fprintf(f,
"Usage: %s [OPTION]... -e SPEC [-e SPEC]... [-- COMMAND [ARG]...]\n"
"  or:  %s --list[=all] [-F jsonl] [PATTERN]\n"
"  or:  %s --check [-F jsonl] [-- COMMAND [ARG]...]\n"
"  or:  %s --register [--persist [--wait]] SPEC...\n"
"  or:  %s --unregister SPEC...\n"
"Record the events of tracepoints, from every process (or those of -p), to a\n"
"file: EventHeader events (user_events written with libeventheader) and\n"
"classic tracepoints.\n"
"With COMMAND, it is started once recording is armed, and recording stops\n"
"when it exits; otherwise at Ctrl-C (SIGINT) or SIGTERM. A stop disables\n"
"the events at once, takes what the buffers hold and completes the file; a\n"
"second signal, while what was recorded is still being converted, ends the\n"
"file there; a third aborts (and writes nothing). Needs root, or\n"
"CAP_PERFMON and access to tracefs.\n"
"\n"
"SPEC is one of\n"
"  Provider_L4K1, Provider_L5K0Ggroup  an EventHeader tracepoint; registered\n"
"                       if it does not exist yet, so that a program started\n"
"                       later has its first event recorded\n"
"  Provider             every tracepoint of that provider, also those that\n"
"                       appear while recording (looked for every 100 ms)\n"
"  system:event         any tracepoint (sched:sched_process_exec)\n"
"followed by /stacks, for the user and kernel stack of each of its events.\n"
"\n"
"Options:\n"
"  -e, --event=SPEC     record SPEC (repeatable)\n"
"  -o, --output=FILE    the file (default trace.nettrace, or perf.data with\n"
"                       -F perf); written as FILE.part-XXXXXX and renamed\n"
"                       when complete (a failed run leaves files as they\n"
"                       were); an existing FILE is kept as FILE.old. - is\n"
"                       standard output (perf: pipe mode), for a pipe:\n"
"                       when its reader closes it, recording stops\n"
"  -F, --format=FORMAT  nettrace  nettrace v6, for PerfView and TraceEvent\n"
"                              (the default)\n"
"                       perf   perf.data, for perf script and ehdecode\n"
"                       With --list or --check: text (the default) or\n"
"                       jsonl, a JSON object a line\n"
"  -g, --call-graph     record the user and kernel call chain of each event\n"
LIVE_HELP_AIM
LIVE_HELP_SYSTEM
"      --no-demangle    nettrace: function names of stacks (ProcessSymbol) as\n"
"                       the symbol tables have them (by default C++ and\n"
"                       Rust names are demangled)\n"
"      --debug-dir=DIR  nettrace: separate debug files under\n"
"                       DIR/.build-id/NN/REST.debug and DIR/PATH (default\n"
"                       /usr/lib/debug, or $EHD_DEBUG_DIR)\n"
"      --circular       flight recorder: keep only the newest events (as many\n"
"                       as the buffers hold); they are written at SIGUSR2 and\n"
"                       at the end\n"
"      --buffer-size=KiB  ring buffer per CPU (default 1024)\n"
"      --duration=SECONDS  stop after SECONDS (2, 0.5) as at a signal: the\n"
"                       events are disabled, the buffers taken, the file\n"
"                       completed\n"
"      --max-size=SIZE  stop before the file would pass SIZE (K, M or G\n"
"                       suffix): the file is complete and at most SIZE;\n"
"                       what was recorded after it is counted, not written\n"
"      --switch-output=SIZE|SECONDS  end the file at each SIZE (K, M or G\n"
"                       suffix) or SECONDS (or with an s, m or h suffix)\n"
"                       and go on in FILE.1, FILE.2, ...: each file is\n"
"                       complete on its own, and none is lost between them\n"
"      --max-files=N    with --switch-output: keep only the newest N files\n"
"      --spool-size=SIZE  nettrace: how much recorded data may wait for its\n"
"                       conversion in memory (default 64M; at least what\n"
"                       the ring buffers hold)\n"
"      --spool-disk=SIZE  and then in a temporary file beside FILE (default\n"
"                       1G; 0 for none). Past both, the buffers fill and\n"
"                       what the kernel cannot store is counted as lost\n"
"      --filter=EXPR    kernel filter on EventHeader tracepoints, on the fields\n"
"                       level, opcode, id, tag, version, eventheader_flags:\n"
"                       \"id == 7 && opcode != 2\"\n"
"      --clock=CLOCK    monotonic (default) or monotonic_raw\n"
"  -q, --quiet          no status line on a terminal, no summary at the end\n"
"  -h, --help           show this help and exit\n"
"  -V, --version        show the version and exit\n"
"\n"
"Without recording:\n"
"      --list[=all]     list the user_events tracepoints that exist now, with\n"
"                       provider, level, keyword and group decoded and the\n"
"                       consumers that have each enabled; =all adds every\n"
"                       classic tracepoint. PATTERN, a SPEC or a glob\n"
"                       ('MyCompany_*'), keeps those it names\n"
"      --check          a line for each thing recording needs (kernel,\n"
"                       tracefs, user_events, permissions, kernel symbols)\n"
"                       and the fix of what fails; with COMMAND, whether its\n"
"                       program has frame pointers for stacks\n"
"      --register       register the EventHeader tracepoints SPEC... (full\n"
"                       names, Provider_L4K1) as programs do, print their\n"
"                       perf names, and hold them until SIGINT or SIGTERM:\n"
"                       perf record -e user_events:NAME can then start\n"
"                       before the program\n"
"      --persist        with --register: the kernel keeps them after\n"
"                       ehrecord ends, which it does at once (needs\n"
"                       CAP_PERFMON)\n"
"      --wait           with --persist: hold them until SIGINT or SIGTERM\n"
"                       all the same\n"
"      --unregister     remove the persistent tracepoints SPEC...\n"
"\n"
"On a terminal, a status line on standard error shows the time, events, losses\n"
"and bytes written. Events lost because a ring was full are counted by CPU at\n"
"the end.\n"
"\n"
"Exit status: 0 when the file was written; 1 when recording failed (the reason\n"
"is on standard error); 2 for a usage error. --check: 0 when recording can\n"
"work here, else 1. --list, --register, --unregister: 0, or 1 on a failure.\n",
		prog, prog, prog, prog, prog);
}

static int usage_error(const char *what, const char *arg)
{
	return cli_usage_error(prog, what, arg);
}

/*
 * The files of a recording: NAME, and with --switch-output NAME.1,
 * NAME.2, ... each written under a temporary name and renamed complete.
 */
struct series {
	const char *name;
	char *path;		/* of the file being written */
	unsigned long index;	/* ... its number (0: NAME) */
	unsigned long max_files;	/* --max-files; 0: keep them all */
	uint64_t limit;		/* nettrace: the bound of each file; 0 */
	struct out_file out;
};

/* File @k of @name: NAME, NAME.1, NAME.2, ... (to free; NULL: no memory). */
static char *series_name(const char *name, unsigned long k)
{
	char *p;

	if (!k)
		return strdup(name);
	return asprintf(&p, "%s.%lu", name, k) < 0 ? NULL : p;
}

/* --max-files: the file that has just become one too many goes. */
static void series_prune(const struct series *sr)
{
	char *old;

	if (!sr->max_files || sr->index < sr->max_files)
		return;
	old = series_name(sr->name, sr->index - sr->max_files);
	if (old && unlink(old) && errno != ENOENT)
		fprintf(stderr, "%s: --max-files: cannot delete %s: %s\n",
			prog, old, strerror(errno));
	free(old);
}

/* A nettrace writer to @fd, bounded as each file is. */
static struct ehd_writer *series_writer(const struct series *sr, int fd)
{
	struct ehd_writer *w = ehd_writer_new(EHD_OUT_NETTRACE, fd,
					      EHD_WRITER_RESERVE, 0);
	int err;

	if (w && sr->limit && (err = ehd_writer_set_limit(w, sr->limit))) {
		ehd_writer_free(w);
		errno = -err;
		return NULL;
	}
	return w;
}

/*
 * --switch-output: the file so far is complete and gets its name; the
 * recording goes on in the next (see struct live_opts's rotate).
 */
static int series_rotate(struct live *l, struct ehd_writer **w)
{
	struct series *sr = l->o->rotate_ctx;
	struct out_file next;
	char *path = series_name(sr->name, sr->index + 1);
	int err;

	if (!path || out_open(&next, path)) {
		fprintf(stderr, "%s: %s: %s\n", prog, path ? path : sr->name,
			strerror(errno));
		free(path);
		return 1;
	}
	if (w) {
		struct ehd_writer_stats ws;
		struct ehd_writer *nw = NULL;

		err = ehd_writer_close(*w);
		ehd_writer_stats(*w, &ws);
		if (err && !ws.no_room)	/* (no room: run() says it) */
			fprintf(stderr, "%s: %s: %s\n", prog, sr->path,
				strerror(-err));
		if (!err && !(nw = series_writer(sr, next.fd)))
			fprintf(stderr, "%s: %s: %s\n", prog, path,
				strerror(errno));
		if (!nw) {
			/* *w, closed, stays: run() ends with it. */
			out_abandon(&next);
			free(path);
			return 1;
		}
		ehd_writer_free(*w);
		*w = nw;
	} else if (ehd_session_switch_output(l->s, next.fd)) {
		fprintf(stderr, "%s: %s\n", prog, ehd_session_error(l->s));
		out_abandon(&next);
		free(path);
		return 1;
	}
	err = out_commit(&sr->out, sr->index == 0);
	if (err) {
		fprintf(stderr, "%s: %s: %s\n", prog, sr->path, strerror(-err));
		out_abandon(&next);
		free(path);
		return 1;
	}
	free(sr->path);
	sr->path = path;
	sr->out = next;
	sr->out.path = path;
	sr->index++;
	series_prune(sr);
	return 0;
}

/*
 * --switch-output=SIZE|SECONDS: a size has a K, M or G suffix; a time is
 * a number of seconds, or has an s, m or h suffix. 0, or -1.
 */
static int switch_arg(const char *arg, struct live_opts *lo)
{
	double v, unit = 0;
	char *end;

	errno = 0;
	v = strtod(arg, &end);
	if (end == arg || errno || *arg == '-' || !(v > 0))
		return -1;
	if (*end && strchr("KMG", *end))
		return live_size(arg, 1ull << 50, &lo->switch_bytes) ||
		       lo->switch_bytes < 65536 ? -1 : 0;
	if (!*end || !strcmp(end, "s"))
		unit = 1;
	else if (!strcmp(end, "m"))
		unit = 60;
	else if (!strcmp(end, "h"))
		unit = 3600;
	lo->switch_secs = v * unit;
	return lo->switch_secs >= 0.1 && lo->switch_secs <= 1e9 ? 0 : -1;
}

/*
 * Is it a system trace? Samples, switches and stacks come with processes
 * and mappings (Universal.System events), so that stacks can be read.
 */
static bool system_trace(const struct live_opts *lo)
{
	size_t i, n;

	if (lo->hz || lo->off_cpu || (lo->flags & EHD_SESSION_CALLCHAIN))
		return true;
	for (i = 0; i < lo->nspecs; i++) {
		n = strlen(lo->specs[i]);
		if (n > 7 && !strcmp(lo->specs[i] + n - 7, "/stacks"))
			return true;
	}
	return false;
}

/* What a run does: record, or one of the options that record nothing. */
enum mode { MODE_RECORD, MODE_LIST, MODE_CHECK, MODE_REGISTER,
	    MODE_UNREGISTER };

static const char *const mode_option[] = {
	NULL, "--list", "--check", "--register", "--unregister",
};

struct other {
	enum mode mode;
	const char *format;	/* -F as given, or NULL */
	bool recording;		/* an option only recording takes was given */
	bool list_all;
	bool persist;
	bool wait;
};

/* --list, --check, --register, --unregister: their arguments, then them. */
static int run_other(const struct other *o, int argc, char **argv)
{
	char **args = argv + optind;
	size_t nargs = (size_t)(argc - optind), i;
	const char *why, *name;
	bool jsonl = false;

	if (o->recording)
		return usage_error("options that are for recording do not go with it",
				   mode_option[o->mode]);
	if ((o->persist || o->wait) && o->mode != MODE_REGISTER)
		return usage_error("--persist and --wait go with --register",
				   NULL);
	if (o->format && o->mode != MODE_LIST && o->mode != MODE_CHECK)
		return usage_error("-F goes with --list or --check, or recording",
				   o->format);
	if (o->format && !strcmp(o->format, "jsonl"))
		jsonl = true;
	else if (o->format && strcmp(o->format, "text"))
		return usage_error("unknown format for --list and --check (text or jsonl)",
				   o->format);
	switch (o->mode) {
	case MODE_LIST: {
		struct list_opts lo = {
			.prog = prog,
			.pattern = nargs ? args[0] : NULL,
			.all = o->list_all,
			.jsonl = jsonl,
		};

		if (nargs > 1)
			return usage_error("--list takes one PATTERN", args[1]);
		return list_run(&lo);
	}
	case MODE_CHECK:
		return check_run(prog, jsonl, nargs ? args : NULL);
	case MODE_REGISTER:
		if (!nargs)
			return usage_error("--register needs a SPEC (Provider_L<level>K<keyword>)",
					   NULL);
		for (i = 0; i < nargs; i++)
			if ((why = register_spec_error(args[i])))
				return usage_error(why, args[i]);
		return register_run(prog, args, nargs, o->persist, o->wait);
	default:
		if (!nargs)
			return usage_error("--unregister needs a SPEC (Provider_L<level>K<keyword>)",
					   NULL);
		for (i = 0; i < nargs; i++) {
			name = ue_spec_name(args[i]);
			if (!name || !*name || strpbrk(name, " \t:;/"))
				return usage_error("not a user_events tracepoint name",
						   args[i]);
		}
		return unregister_run(prog, args, nargs);
	}
}

static int set_mode(struct other *o, enum mode mode)
{
	if (o->mode != MODE_RECORD && o->mode != mode)
		return usage_error("--list, --check, --register and --unregister go one at a time",
				   mode_option[mode]);
	o->mode = mode;
	return 0;
}

static int run(int argc, char **argv, struct live_opts *lo)
{
	enum { OPT_CIRCULAR = 256, OPT_CLOCK, OPT_SPOOL_DISK, OPT_LIST,
	       OPT_CHECK, OPT_REGISTER, OPT_PERSIST, OPT_WAIT,
	       OPT_UNREGISTER, OPT_MAX_SIZE, OPT_SWITCH, OPT_MAX_FILES,
	       OPT_NO_DEMANGLE, OPT_DEBUG_DIR };
	static const struct option longopts[] = {
		LIVE_LONGOPTS,
		{ "list", optional_argument, NULL, OPT_LIST },
		{ "check", no_argument, NULL, OPT_CHECK },
		{ "register", no_argument, NULL, OPT_REGISTER },
		{ "persist", no_argument, NULL, OPT_PERSIST },
		{ "wait", no_argument, NULL, OPT_WAIT },
		{ "unregister", no_argument, NULL, OPT_UNREGISTER },
		{ "output", required_argument, NULL, 'o' },
		{ "format", required_argument, NULL, 'F' },
		{ "call-graph", no_argument, NULL, 'g' },
		{ "circular", no_argument, NULL, OPT_CIRCULAR },
		{ "clock", required_argument, NULL, OPT_CLOCK },
		{ "spool-disk", required_argument, NULL, OPT_SPOOL_DISK },
		{ "max-size", required_argument, NULL, OPT_MAX_SIZE },
		{ "switch-output", required_argument, NULL, OPT_SWITCH },
		{ "max-files", required_argument, NULL, OPT_MAX_FILES },
		{ "no-demangle", no_argument, NULL, OPT_NO_DEMANGLE },
		{ "debug-dir", required_argument, NULL, OPT_DEBUG_DIR },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	const char *output = NULL;
	struct ehd_writer *w = NULL;
	struct ehd_writer_stats ws;
	struct series sr = { 0 };
	char *dir = NULL, *end;
	uint64_t spool_disk = SPOOL_DISK_DEFAULT;
	bool perf = false, started = false, raw_names = false, quiet = false;
	bool kept = false;	/* a failed run's file, complete */
	unsigned int rflags;
	struct other other = { MODE_RECORD, NULL, false, false, false, false };
	struct live l;
	const char *why;
	int c, k, ret, err;

	lo->prog = prog;
	lo->status = true;
	while ((c = getopt_long(argc, argv, LIVE_SHORTOPTS "o:F:gqhV",
				longopts, NULL)) != -1) {
		k = live_option(lo, c, optarg, &why);
		if (k < 0)
			return usage_error(why, optarg);
		if (k) {
			other.recording = true;
			continue;
		}
		switch (c) {
		case 'o':
			output = optarg;
			other.recording = true;
			break;
		case 'F':
			other.format = optarg;
			break;
		case 'g':
			lo->flags |= EHD_SESSION_CALLCHAIN;
			other.recording = true;
			break;
		case OPT_CIRCULAR:
			lo->flags |= EHD_SESSION_CIRCULAR;
			other.recording = true;
			break;
		case OPT_LIST:
			if (optarg && strcmp(optarg, "all"))
				return usage_error("--list takes =all or nothing",
						   optarg);
			other.list_all = optarg != NULL;
			if (set_mode(&other, MODE_LIST))
				return 2;
			break;
		case OPT_CHECK:
			if (set_mode(&other, MODE_CHECK))
				return 2;
			break;
		case OPT_REGISTER:
			if (set_mode(&other, MODE_REGISTER))
				return 2;
			break;
		case OPT_UNREGISTER:
			if (set_mode(&other, MODE_UNREGISTER))
				return 2;
			break;
		case OPT_PERSIST:
			other.persist = true;
			break;
		case OPT_WAIT:
			other.wait = true;
			break;
		case OPT_CLOCK:
			other.recording = true;
			if (!strcmp(optarg, "monotonic_raw"))
				lo->flags |= EHD_SESSION_CLOCK_RAW;
			else if (strcmp(optarg, "monotonic"))
				return usage_error("unknown clock (monotonic or monotonic_raw)",
						   optarg);
			break;
		case OPT_SPOOL_DISK:
			other.recording = true;
			if (live_size(optarg, 1ull << 50, &spool_disk))
				return usage_error("bad size (0 for none, or a number with a K, M or G suffix)",
						   optarg);
			break;
		case OPT_MAX_SIZE:
			other.recording = true;
			if (live_size(optarg, 1ull << 50, &lo->max_size) ||
			    lo->max_size < 65536)
				return usage_error("bad size (64K or more, with a K, M or G suffix)",
						   optarg);
			break;
		case OPT_SWITCH:
			other.recording = true;
			if (switch_arg(optarg, lo))
				return usage_error("bad --switch-output (a size of 64K or more with a K, M or G suffix, or seconds: 30, 30s, 5m, 1h)",
						   optarg);
			break;
		case OPT_MAX_FILES:
			other.recording = true;
			errno = 0;
			sr.max_files = strtoul(optarg, &end, 10);
			if (errno || end == optarg || *end || *optarg == '-' ||
			    !sr.max_files)
				return usage_error("bad number of files (1 or more)",
						   optarg);
			break;
		case OPT_NO_DEMANGLE:
			other.recording = true;
			raw_names = true;
			break;
		case OPT_DEBUG_DIR:
			other.recording = true;
			/* where the library looks (it reads the variable) */
			if (!*optarg || setenv("EHD_DEBUG_DIR", optarg, 1))
				return usage_error("bad debug folder", optarg);
			break;
		case 'q':
			quiet = true;
			lo->status = false;
			break;
		default:
			return cli_common(c, prog, usage);
		}
	}
	if (other.mode != MODE_RECORD)
		return run_other(&other, argc, argv);
	if (other.persist || other.wait)
		return usage_error("--persist and --wait go with --register",
				   NULL);
	if (other.format && !strcmp(other.format, "perf"))
		perf = true;
	else if (other.format && strcmp(other.format, "nettrace"))
		return usage_error("unknown format (nettrace or perf)",
				   other.format);
	if (!lo->live)
		return usage_error("nothing to record: give -e SPEC, --cpu-sampling or --off-cpu",
				   NULL);
	why = live_check(lo, optind < argc ? argv + optind : NULL);
	if (why)
		return usage_error(why, NULL);
	lo->cmdline = (const char *const *)argv;
	lo->status = lo->status && isatty(STDERR_FILENO);
	if (!output)
		output = perf ? "perf.data" : "trace.nettrace";
	if (lo->switch_bytes || lo->switch_secs) {
		if (!strcmp(output, "-"))
			return usage_error("--switch-output needs files, not standard output",
					   NULL);
		if (lo->max_size || (lo->flags & EHD_SESSION_CIRCULAR))
			return usage_error("--switch-output goes with neither --max-size nor --circular",
					   NULL);
		lo->rotate = series_rotate;
		lo->rotate_ctx = &sr;
	} else if (sr.max_files) {
		return usage_error("--max-files goes with --switch-output", NULL);
	}
	rflags = EHD_READER_SORT_TIME |
		 (system_trace(lo) ? EHD_READER_SYSTEM : 0) |
		 (raw_names ? EHD_READER_RAW_NAMES : 0);
	/*
	 * Read once complete: no need to empty the rings every 100 ms; but
	 * a system trace converted to nettrace reads /proc as it goes (a
	 * process's files through its root, its pid namespace, JIT maps),
	 * which wants its processes still there.
	 */
	lo->read_after = strcmp(output, "-") && !lo->rotate &&
			 (perf || !(rflags & EHD_READER_SYSTEM));
	sr.name = output;
	sr.limit = perf ? 0 : lo->max_size ? lo->max_size : lo->switch_bytes;

	/*
	 * Written under another name, renamed at the end: a failed run
	 * leaves the files there as they were. A stop from here on ends the
	 * recording as soon as it has started, with a complete file.
	 */
	live_catch_signals();
	sr.path = strdup(output);
	if (!sr.path || out_open(&sr.out, sr.path)) {
		fprintf(stderr, "%s: %s: %s\n", prog, output, strerror(errno));
		free(sr.path);
		return 1;
	}
	if (perf) {
		lo->out_fd = sr.out.fd;
	} else {
		lo->spool_disk = spool_disk;
		lo->spool_dir = dir = out_folder(output);
		w = dir ? series_writer(&sr, sr.out.fd) : NULL;
		if (!dir || !w) {
			fprintf(stderr, "%s: %s\n", prog, strerror(errno));
			ret = 1;
			goto done;
		}
	}
	ret = live_start(&l, lo);
	started = true;
	if (!ret)
		ret = live_run_command(&l);
	if (!ret && perf) {
		ret = live_write_perf(&l);
		if (l.no_room) {	/* (live_no_room() said it) */
			/* Completed where it was cut back: kept. */
			ret = 1;
			kept = true;
		}
	} else if (!ret) {
		ret = live_write_events(&l, &w, rflags);
	}
	if (w) {
		err = ehd_writer_close(w);
		ehd_writer_stats(w, &ws);
		if (err == -EPIPE) {
			live_pipe_closed(&l);	/* said; no failure */
			err = 0;
		} else if (err && ws.no_room) {
			/* Complete up to where it found no room: kept. */
			live_no_room(&l, w);
			ret = 1;
			kept = true;
		} else if (err && !ret) {
			fprintf(stderr, "%s: %s: %s\n", prog, sr.path,
				strerror(-err));
			ret = 1;
		} else if (!err) {
			report_writer(prog, w, EHD_OUT_NETTRACE, false);
		}
	}
done:
	ehd_writer_free(w);
	if (ret && !kept) {
		out_abandon(&sr.out);
	} else {
		err = out_commit(&sr.out, sr.index == 0);
		if (err) {
			fprintf(stderr, "%s: %s: %s\n", prog, sr.path,
				strerror(-err));
			ret = 1;
			kept = false;
		}
		series_prune(&sr);
	}
	if ((!ret || kept) && !quiet)
		live_summary(&l, output, sr.index ? sr.path : NULL);
	if (started)
		live_free(&l);
	free(sr.path);
	free(dir);
	return ret;
}

int main(int argc, char **argv)
{
	return live_main(argc, argv, run);
}
