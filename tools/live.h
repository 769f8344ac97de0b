/* SPDX-License-Identifier: MIT */
/*
 * live.h - what ehdecode and ehrecord share to collect live: the session
 * set up from options, the command run under it, signals, the end report
 *
 *	struct live l;
 *
 *	if (live_start(&l, &opts) || live_run_command(&l))
 *		return 1;			(the reason is printed)
 *	while (live_running(&l))
 *		... read; on -EAGAIN: live_wait(&l) ...
 *	live_stop(&l);
 *	... read the rest ...
 *	live_report(&l);
 *	live_free(&l);
 *
 * SIGINT and SIGTERM stop the collection cleanly (the output is
 * completed); a second one aborts at once. SIGUSR2 asks for a snapshot
 * (circular sessions).
 */
#ifndef EH_TOOLS_LIVE_H
#define EH_TOOLS_LIVE_H

#include <stdbool.h>
#include <getopt.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <ehdecode/session.h>

struct live;
struct ehd_writer;

struct live_opts {
	const char *prog;	/* for messages */
	const char **specs;	/* -e */
	size_t nspecs;
	const char *filter;
	unsigned int flags;	/* EHD_SESSION_* */
	size_t buffer;		/* bytes per CPU, 0: the default */
	char **command;		/* argv to run, NULL for none */
	const char *const *cmdline;	/* recorded as the command line */
	bool status;		/* a status line on a terminal's stderr */
	unsigned int hz;	/* --cpu-sampling, 0 for none */
	bool off_cpu;		/* --off-cpu */
	bool live;		/* any of -e, --cpu-sampling, --off-cpu */
	char **owned;		/* specs made here (--stacks), freed after */
	size_t nowned;
	int out_fd;		/* the session writes perf.data here; -1 */
	size_t spool_mem;	/* --spool-size; 0: the library's default */
	uint64_t spool_disk;	/* --spool-disk */
	const char *spool_dir;	/* where the spool's file goes, or NULL */
	double duration;	/* --duration in seconds, 0 for none */
	pid_t *pids;		/* -p: the processes aimed at */
	size_t npids;
	bool aim_command;	/* -p command: and COMMAND */
	bool children;		/* --children */
	int *cpus;		/* -C: the CPUs, none for every one */
	size_t ncpus;
	uint64_t max_size;	/* --max-size: of the perf.data (out_fd) */
	uint64_t switch_bytes;	/* --switch-output=SIZE, 0 for none */
	double switch_secs;	/* --switch-output=SECONDS, 0 for none */
	/*
	 * Nothing reads the output while recording (a file, not a series,
	 * and no conversion that reads /proc as it goes): the rings are
	 * emptied when half full (three quarters for a nettrace; not every
	 * 100 ms) and the tool wakes once a second when nothing else needs
	 * it sooner.
	 */
	bool read_after;
	/*
	 * At a --switch-output boundary: end the file (nettrace: *@w, ended,
	 * its losses counted; perf: the session's, with
	 * ehd_session_switch_output()) and go on in the next (nettrace: a new
	 * writer in *@w, not begun). 0, or 1 (printed, but for a nettrace
	 * that found no room, which the caller says): *@w is then the
	 * file's writer still, closed.
	 */
	int (*rotate)(struct live *l, struct ehd_writer **w);
	void *rotate_ctx;
};

struct live {
	const struct live_opts *o;
	struct ehd_session *s;
	pid_t child;		/* 0 when none, or reaped */
	int child_gate;		/* the child waits for it to close; -1 */
	int child_exec;		/* the child's exec failure comes here; -1 */
	int child_status;
	bool child_done;
	bool stopped;
	bool pipe_closed;	/* the output was a pipe its reader closed */
	bool limit_hit;		/* the output reached --max-size */
	int no_room;		/* the errno of a file with no room */
	double file_started;	/* --switch-output: when this file began */
	bool file_full;		/* ... this perf.data reached its size */
	uint64_t lost_before;	/* ... losses in the files before it */
	double started;		/* monotonic seconds */
	double last_status;
	bool status_shown;
	unsigned long long events;	/* events written */
	unsigned long long events_before;	/* ... to files before this */
	/* converted: tracepoint samples read, and whether all the stream */
	unsigned long long samples_read;
	bool read_all;
	struct ehd_writer *w;		/* while writing events */
};

/* The options of a live session both tools take, for getopt_long(). */
#define LIVE_OPT_FILTER 0x4c01
#define LIVE_OPT_BUFFER 0x4c02
#define LIVE_OPT_SAMPLING 0x4c03
#define LIVE_OPT_OFF_CPU 0x4c04
#define LIVE_OPT_STACKS 0x4c05
#define LIVE_OPT_SPOOL 0x4c06
#define LIVE_OPT_DURATION 0x4c07
#define LIVE_OPT_CHILDREN 0x4c08
#define LIVE_LONGOPTS \
	{ "event", required_argument, NULL, 'e' }, \
	{ "stacks", no_argument, NULL, LIVE_OPT_STACKS }, \
	{ "filter", required_argument, NULL, LIVE_OPT_FILTER }, \
	{ "buffer-size", required_argument, NULL, LIVE_OPT_BUFFER }, \
	{ "spool-size", required_argument, NULL, LIVE_OPT_SPOOL }, \
	{ "cpu-sampling", optional_argument, NULL, LIVE_OPT_SAMPLING }, \
	{ "off-cpu", no_argument, NULL, LIVE_OPT_OFF_CPU }, \
	{ "duration", required_argument, NULL, LIVE_OPT_DURATION }, \
	{ "pid", required_argument, NULL, 'p' }, \
	{ "children", no_argument, NULL, LIVE_OPT_CHILDREN }, \
	{ "cpu", required_argument, NULL, 'C' }

/* Their short options, for getopt_long()'s string. */
#define LIVE_SHORTOPTS "e:p:C:"

/* The help text of those options. */
#define LIVE_HELP_AIM \
"  -p, --pid=PID[,PID]...  only the events of these processes (their threads\n" \
"                       too), opened on their threads in the kernel;\n" \
"                       repeatable; \"command\" is COMMAND. Stops when\n" \
"                       they have all exited\n" \
"      --children       with -p: also the processes they start\n" \
"  -C, --cpu=LIST       only these CPUs: 0,2-3\n"

#define LIVE_HELP_SYSTEM \
"      --stacks         the -e SPEC just before it with stacks (SPEC/stacks)\n" \
"      --cpu-sampling[=HZ]  sample every CPU HZ times a second (default 1000)\n" \
"                       with user and kernel stacks\n" \
"      --off-cpu        record context switches with the stack where each\n" \
"                       thread left the CPU (sched:sched_switch)\n"

/*
 * live_size() - a size with an optional K, M or G suffix (powers of 1024)
 * Return: 0, or -1 when @arg is not one or is over @max.
 */
int live_size(const char *arg, uint64_t max, uint64_t *v);

/*
 * live_option() - take -e, --stacks, --filter, --buffer-size,
 * --spool-size, --cpu-sampling, --off-cpu, --duration, -p, --children or
 * -C into @o
 * Return: 1 when taken, 0 when @c is another option, -1 for a bad value
 * (the usage error's text in *@why).
 */
int live_option(struct live_opts *o, int c, const char *arg, const char **why);

/*
 * live_check() - what the options say together, once all are read; with
 * @command, COMMAND to run
 * Return: NULL, or the usage error's text.
 */
const char *live_check(struct live_opts *o, char **command);

/*
 * live_main() - run a tool's @run with room for every -e in its options
 * (freed after, whichever way @run returns)
 */
int live_main(int argc, char **argv,
	      int (*run)(int argc, char **argv, struct live_opts *o));

/*
 * live_catch_signals() - SIGINT and SIGTERM stop the recording from now
 * on (a third aborts it, deleting the temporary output files), SIGUSR2
 * asks for a snapshot, SIGPIPE is ignored. live_start() does it; a tool
 * does it first, before it creates its output file.
 */
void live_catch_signals(void);

/* Set up the session and start it; 0, or 1 (printed). */
int live_start(struct live *l, const struct live_opts *o);

/* Then start the command, if any; 0, or 1 (printed). */
int live_run_command(struct live *l);

/*
 * Keep collecting? False once stopped by a signal, --duration, the
 * command's end or the output's reader closing it.
 */
bool live_running(struct live *l);

/* The output is a pipe whose reader closed it: say so, and stop. */
void live_pipe_closed(struct live *l);

/* The output reached --max-size: say so, and stop. */
void live_limit_hit(struct live *l);

/*
 * The file found no room: that of nettrace writer @w (ehd_writer_stats()
 * no_room: then only the events in it count as written), or with @w NULL
 * the session's perf.data (ehd_session_stats() no_room; nothing happens
 * when it is 0). Say so, and stop.
 */
void live_no_room(struct live *l, struct ehd_writer *w);

/*
 * Wait for data (up to 100 ms), take a snapshot when asked, update the
 * status line. 0, or 1 after a failure (printed).
 */
int live_wait(struct live *l);

/* Stop the session (the rest can then be read). 0, or 1 (printed). */
int live_stop(struct live *l);

/*
 * Decode the session's events into *@w (a reader with @reader_flags) until
 * stopped, then the rest; the end report too. With --switch-output, *@w
 * is the writer of the last file at the end. 0, or 1 (printed).
 */
int live_write_events(struct live *l, struct ehd_writer **w,
		      unsigned int reader_flags);

/*
 * Wait while the session writes its perf.data (o->out_fd) until stopped,
 * then complete it; the end report too, and live_no_room() (l->no_room
 * says whether the file was cut short). 0, or 1 (printed).
 */
int live_write_perf(struct live *l);

/* Losses by CPU, and the status line cleared. */
void live_report(struct live *l);

/*
 * The line that says a recording ended well: "wrote @output" (" to
 * @last", the last file of a series), its events (of a perf.data, those
 * the session recorded; else those written), the events lost and the
 * time it took.
 */
void live_summary(const struct live *l, const char *output,
		  const char *last);

/* The exit code the command's status gives (0 without a command). */
int live_child_exit(const struct live *l);

void live_free(struct live *l);

#endif /* EH_TOOLS_LIVE_H */
