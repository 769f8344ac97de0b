// SPDX-License-Identifier: MIT
/*
 * ehrecord - record EventHeader and tracepoint events to a nettrace v6 or
 * perf.data file
 *
 * Option parsing and messages only: collection is libehdecode's session,
 * output its writer (nettrace) or the session's own stream (perf.data).
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

#include "live.h"
#include "output.h"
#include "report.h"

static const char *prog = "ehrecord";

/* How much may wait for conversion on disk, beside the output. */
#define SPOOL_DISK_DEFAULT (1ull << 30)

static void usage(FILE *f)
{
	fprintf(f,
"Usage: %s [OPTION]... -e SPEC [-e SPEC]... [-- COMMAND [ARG]...]\n"
"Record the events of tracepoints, from every process, to a file: EventHeader\n"
"events (user_events written with libeventheader) and classic tracepoints.\n"
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
"                       were); an existing FILE is kept as FILE.old\n"
"  -F, --format=FORMAT  nettrace  nettrace v6, for PerfView and TraceEvent\n"
"                              (the default)\n"
"                       perf   perf.data, for perf script and ehdecode\n"
"  -g, --call-graph     record the user and kernel call chain of each event\n"
LIVE_HELP_SYSTEM
"      --circular       flight recorder: keep only the newest events (as many\n"
"                       as the buffers hold); they are written at SIGUSR2 and\n"
"                       at the end\n"
"      --buffer-size=KiB  ring buffer per CPU (default 1024)\n"
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
"  -q, --quiet          no status line on a terminal\n"
"  -h, --help           show this help and exit\n"
"  -V, --version        show the version and exit\n"
"\n"
"On a terminal, a status line on standard error shows the time, events, losses\n"
"and bytes written. Events lost because a ring was full are counted by CPU at\n"
"the end.\n"
"\n"
"Exit status: 0 when the file was written; 1 when recording failed (the reason\n"
"is on standard error); 2 for a usage error.\n",
		prog);
}

static int usage_error(const char *what, const char *arg)
{
	fprintf(stderr, "%s: %s%s%s\nTry '%s --help' for more information.\n",
		prog, what, arg ? ": " : "", arg ? arg : "", prog);
	return 2;
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

static int run(int argc, char **argv, struct live_opts *lo)
{
	enum { OPT_CIRCULAR = 256, OPT_CLOCK, OPT_SPOOL_DISK };
	static const struct option longopts[] = {
		LIVE_LONGOPTS,
		{ "output", required_argument, NULL, 'o' },
		{ "format", required_argument, NULL, 'F' },
		{ "call-graph", no_argument, NULL, 'g' },
		{ "circular", no_argument, NULL, OPT_CIRCULAR },
		{ "clock", required_argument, NULL, OPT_CLOCK },
		{ "spool-disk", required_argument, NULL, OPT_SPOOL_DISK },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	const char *output = NULL;
	struct ehd_writer *w = NULL;
	struct out_file out;
	char *dir = NULL;
	uint64_t spool_disk = SPOOL_DISK_DEFAULT;
	bool perf = false, started = false;
	struct live l;
	const char *why;
	int c, k, ret, err;

	lo->prog = prog;
	lo->status = true;
	while ((c = getopt_long(argc, argv, "e:o:F:gqhV", longopts,
				NULL)) != -1) {
		k = live_option(lo, c, optarg, &why);
		if (k < 0)
			return usage_error(why, optarg);
		if (k)
			continue;
		switch (c) {
		case 'o':
			output = optarg;
			break;
		case 'F':
			if (!strcmp(optarg, "nettrace"))
				perf = false;
			else if (!strcmp(optarg, "perf"))
				perf = true;
			else
				return usage_error("unknown format (nettrace or perf)",
						   optarg);
			break;
		case 'g':
			lo->flags |= EHD_SESSION_CALLCHAIN;
			break;
		case OPT_CIRCULAR:
			lo->flags |= EHD_SESSION_CIRCULAR;
			break;
		case OPT_CLOCK:
			if (!strcmp(optarg, "monotonic_raw"))
				lo->flags |= EHD_SESSION_CLOCK_RAW;
			else if (strcmp(optarg, "monotonic"))
				return usage_error("unknown clock (monotonic or monotonic_raw)",
						   optarg);
			break;
		case OPT_SPOOL_DISK:
			if (live_size(optarg, 1ull << 50, &spool_disk))
				return usage_error("bad size (0 for none, or a number with a K, M or G suffix)",
						   optarg);
			break;
		case 'q':
			lo->status = false;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			printf("%s (%s) %s\n", prog, PACKAGE_NAME, PACKAGE_VERSION);
			return 0;
		default:
			fprintf(stderr, "Try '%s --help' for more information.\n",
				prog);
			return 2;
		}
	}
	if (!lo->live)
		return usage_error("nothing to record: give -e SPEC, --cpu-sampling or --off-cpu",
				   NULL);
	if (optind < argc)
		lo->command = argv + optind;
	lo->cmdline = (const char *const *)argv;
	lo->status = lo->status && isatty(STDERR_FILENO);
	if (!output)
		output = perf ? "perf.data" : "trace.nettrace";

	/*
	 * Written under another name, renamed at the end: a failed run
	 * leaves the files there as they were.
	 */
	if (out_open(&out, output)) {
		fprintf(stderr, "%s: %s: %s\n", prog, output, strerror(errno));
		return 1;
	}
	live_unlink_on_abort(out.tmp);
	if (perf) {
		lo->out_fd = out.fd;
	} else {
		lo->spool_disk = spool_disk;
		lo->spool_dir = dir = out_folder(output);
		w = ehd_writer_new(EHD_OUT_NETTRACE, out.fd, 0, 0);
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
	if (!ret && perf)
		ret = live_write_perf(&l);
	else if (!ret)
		ret = live_write_events(&l, w, EHD_READER_SORT_TIME |
					(system_trace(lo) ? EHD_READER_SYSTEM : 0));
	if (w) {
		err = ehd_writer_close(w);
		if (err && !ret) {
			fprintf(stderr, "%s: %s: %s\n", prog, output,
				strerror(-err));
			ret = 1;
		} else if (!err) {
			report_writer(prog, w, EHD_OUT_NETTRACE, false);
		}
	}
done:
	ehd_writer_free(w);
	live_unlink_on_abort(NULL);
	if (ret) {
		out_abandon(&out);
	} else {
		err = out_commit(&out, true);
		if (err) {
			fprintf(stderr, "%s: %s: %s\n", prog, output,
				strerror(-err));
			ret = 1;
		}
	}
	if (!ret && lo->status)
		fprintf(stderr, "%s: wrote %s\n", prog, output);
	if (started)
		live_free(&l);
	free(dir);
	return ret;
}

int main(int argc, char **argv)
{
	return live_main(argc, argv, run);
}
