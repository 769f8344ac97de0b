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

#include <ehdecode/reader.h>
#include <ehdecode/session.h>
#include <ehdecode/writer.h>

#include "live.h"

static const char *prog = "ehrecord";

static void usage(FILE *f)
{
	fprintf(f,
"Usage: %s [OPTION]... -e SPEC [-e SPEC]... [-- COMMAND [ARG]...]\n"
"Record the events of tracepoints, from every process, to a file: EventHeader\n"
"events (user_events written with libeventheader) and classic tracepoints.\n"
"With COMMAND, it is started once recording is armed, and recording stops\n"
"when it exits; otherwise at Ctrl-C (SIGINT) or SIGTERM. The file is always\n"
"complete; a second signal aborts at once. Needs root, or CAP_PERFMON and\n"
"access to tracefs.\n"
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
"                       -F perf); an existing FILE is kept as FILE.old\n"
"  -F, --format=FORMAT  nettrace  nettrace v6, for PerfView and TraceEvent\n"
"                              (the default)\n"
"                       perf   perf.data, for perf script and ehdecode (in\n"
"                              pipe mode while recording, rewritten at the end)\n"
"  -g, --call-graph     record the user and kernel call chain of each event\n"
LIVE_HELP_SYSTEM
"      --circular       flight recorder: keep only the newest events (as many\n"
"                       as the buffers hold); they are written at SIGUSR2 and\n"
"                       at the end\n"
"      --buffer-size=KiB  ring buffer per CPU (default 1024)\n"
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

/* Keep an existing @path as @path.old, as perf does. */
static int keep_old(const char *path)
{
	size_t n = strlen(path);
	char *old = malloc(n + 5);
	int ret = 0;

	if (!old)
		return -ENOMEM;
	memcpy(old, path, n);
	memcpy(old + n, ".old", 5);
	if (!access(path, F_OK) && rename(path, old))
		ret = -errno;
	free(old);
	return ret;
}

/*
 * The perf.data written while recording is in pipe mode; make it a
 * normal-mode file, which perf reads even with tracepoints found late.
 * On failure the pipe-mode file stays (ehdecode reads it).
 */
static int make_normal(const char *output)
{
	size_t n = strlen(output);
	char *tmp = malloc(n + 5), why[300] = "";
	int in, out, err = 0;

	if (!tmp)
		return 1;
	memcpy(tmp, output, n);
	memcpy(tmp + n, ".tmp", 5);
	in = open(output, O_RDONLY | O_CLOEXEC);
	out = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (in < 0 || out < 0) {
		err = -errno;
		snprintf(why, sizeof(why), "%s", strerror(errno));
	} else {
		err = ehd_session_perf_file(in, out, why, sizeof(why));
	}
	if (in >= 0)
		close(in);
	if (out >= 0 && close(out) && !err) {
		err = -errno;
		snprintf(why, sizeof(why), "%s", strerror(errno));
	}
	if (!err && rename(tmp, output)) {
		err = -errno;
		snprintf(why, sizeof(why), "%s", strerror(errno));
	}
	if (err) {
		unlink(tmp);
		fprintf(stderr, "%s: %s: left in pipe mode (ehdecode reads it, perf may not): %s\n",
			prog, output, why);
	}
	free(tmp);
	return !!err;
}

static int run(int argc, char **argv, struct live_opts *lo)
{
	enum { OPT_CIRCULAR = 256, OPT_CLOCK };
	static const struct option longopts[] = {
		LIVE_LONGOPTS,
		{ "output", required_argument, NULL, 'o' },
		{ "format", required_argument, NULL, 'F' },
		{ "call-graph", no_argument, NULL, 'g' },
		{ "circular", no_argument, NULL, OPT_CIRCULAR },
		{ "clock", required_argument, NULL, OPT_CLOCK },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	const char *output = NULL;
	struct ehd_writer *w = NULL;
	bool perf = false;
	struct live l;
	const char *why;
	int c, k, fd, ret, err;

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

	/* The session first: a failed start leaves files as they were. */
	if (live_start(&l, lo)) {
		live_free(&l);
		return 1;
	}
	err = keep_old(output);
	if (err) {
		fprintf(stderr, "%s: cannot keep %s as %s.old: %s\n", prog,
			output, output, strerror(-err));
		live_free(&l);
		return 1;
	}
	fd = open(output, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		fprintf(stderr, "%s: %s: %s\n", prog, output, strerror(errno));
		live_free(&l);
		return 1;
	}
	if (!perf) {
		w = ehd_writer_new(EHD_OUT_NETTRACE, fd, 0, 0);
		if (!w) {
			fprintf(stderr, "%s: %s\n", prog, strerror(errno));
			close(fd);
			live_free(&l);
			return 1;
		}
	}
	ret = live_run_command(&l);
	if (!ret && perf)
		ret = live_write_perf(&l, fd, output);
	else if (!ret)
		ret = live_write_events(&l, w, EHD_READER_SORT_TIME |
					(system_trace(lo) ? EHD_READER_SYSTEM : 0));
	if (w) {
		err = ehd_writer_close(w);
		if (err) {
			fprintf(stderr, "%s: %s: %s\n", prog, output,
				strerror(-err));
			ret = 1;
		}
		ehd_writer_free(w);
	}
	if (close(fd)) {
		fprintf(stderr, "%s: %s: %s\n", prog, output, strerror(errno));
		ret = 1;
	}
	if (!ret && perf)
		ret = make_normal(output);
	if (!ret && lo->status)
		fprintf(stderr, "%s: wrote %s\n", prog, output);
	live_free(&l);
	return ret;
}

int main(int argc, char **argv)
{
	return live_main(argc, argv, run);
}
