// SPDX-License-Identifier: MIT
/*
 * live.c - live collection for ehdecode and ehrecord: the session from
 * options, the command under it, signals and the end report
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>

#include <ehdecode/reader.h>
#include <ehdecode/writer.h>

#include "live.h"
#include "output.h"
#include "report.h"

/* Spool bytes at the stop worth a word: their conversion takes a while. */
#define BACKLOG_SAY (8u << 20)

static volatile sig_atomic_t stop_signals;
static volatile sig_atomic_t snapshot_wanted;

/*
 * The first signal stops the recording; the second, while what was
 * recorded is still being converted, ends the conversion there (the file
 * is completed with what it has); the third aborts at once.
 */
static void on_stop(int sig)
{
	if (stop_signals++ >= 2)
		out_die(sig);	/* no temporary file left */
}

static void on_snapshot(int sig)
{
	(void)sig;
	snapshot_wanted = 1;
}

static void handle(int sig, void (*fn)(int))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fn;
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);	/* no SA_RESTART: poll() returns */
}

void live_catch_signals(void)
{
	/*
	 * A stop counts from here, before the session is set up: what comes
	 * before it starts stops it as soon as it has (a background job of a
	 * shell starts with SIGINT ignored: caught all the same).
	 */
	handle(SIGINT, on_stop);
	handle(SIGTERM, on_stop);
	handle(SIGUSR2, on_snapshot);
	/* A reader of the output that goes away stops the recording (EPIPE). */
	signal(SIGPIPE, SIG_IGN);
	out_die_on_signals();	/* SIGHUP */
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* @n bytes for a message: "812 bytes", "3.4 KiB", "1.5 MiB". */
static const char *size_text(uint64_t n, char buf[32])
{
	if (n < 1024)
		snprintf(buf, 32, "%llu bytes", (unsigned long long)n);
	else if (n < (1u << 20))
		snprintf(buf, 32, "%.1f KiB", (double)n / 1024.0);
	else
		snprintf(buf, 32, "%.1f MiB", (double)n / 1048576.0);
	return buf;
}

int live_size(const char *arg, uint64_t max, uint64_t *v)
{
	unsigned long long n;
	unsigned int shift = 0;
	char *end;

	errno = 0;
	n = strtoull(arg, &end, 10);
	if (errno || end == arg || *arg == '-')
		return -1;
	switch (*end) {
	case 'k': case 'K': shift = 10; end++; break;
	case 'm': case 'M': shift = 20; end++; break;
	case 'g': case 'G': shift = 30; end++; break;
	case 0: break;
	default: return -1;
	}
	if (*end == 'i' && shift)
		end++;
	if ((*end == 'b' || *end == 'B') && shift)
		end++;
	if (*end || n > (max >> shift))
		return -1;
	*v = (uint64_t)n << shift;
	return 0;
}

/* -p PID[,PID]... or -p command, into @o. */
static int add_pids(struct live_opts *o, const char *arg, const char **why)
{
	const char *p = arg;
	pid_t *v;

	for (;;) {
		size_t n = strcspn(p, ",");
		unsigned long pid;
		char *end;

		if (n == 7 && !strncmp(p, "command", 7)) {
			o->aim_command = true;
		} else {
			errno = 0;
			pid = strtoul(p, &end, 10);
			if (errno || end != p + n || !n || *p == '-' || !pid ||
			    pid > 0x7fffffff) {
				*why = "bad process id (PID[,PID]..., or command)";
				return -1;
			}
			v = realloc(o->pids, (o->npids + 1) * sizeof(*v));
			if (!v) {
				*why = strerror(ENOMEM);
				return -1;
			}
			o->pids = v;
			o->pids[o->npids++] = (pid_t)pid;
		}
		if (!p[n])
			return 1;
		p += n + 1;
	}
}

/* -C LIST, perf's syntax (0,2-3), into @o. */
static int add_cpus(struct live_opts *o, const char *arg, const char **why)
{
	const char *p = arg;
	int *v;

	*why = "bad CPU list (such as 0,2-3)";
	for (;;) {
		unsigned long lo, hi, c;
		char *end;

		if (*p < '0' || *p > '9')
			return -1;
		errno = 0;
		lo = hi = strtoul(p, &end, 10);
		if (*end == '-') {
			p = end + 1;
			if (*p < '0' || *p > '9')
				return -1;
			hi = strtoul(p, &end, 10);
		}
		if (errno || hi < lo || hi >= 65536 || (*end && *end != ','))
			return -1;
		v = realloc(o->cpus, (o->ncpus + hi - lo + 1) * sizeof(*v));
		if (!v) {
			*why = strerror(ENOMEM);
			return -1;
		}
		o->cpus = v;
		for (c = lo; c <= hi; c++)
			o->cpus[o->ncpus++] = (int)c;
		if (!*end)
			return 1;
		p = end + 1;
	}
}

const char *live_check(struct live_opts *o, char **command)
{
	o->command = command;
	if (o->aim_command && !command)
		return "-p command needs a COMMAND after the options (-- COMMAND)";
	if (o->children && !o->npids && !o->aim_command)
		return "--children goes with -p";
	return NULL;
}

int live_option(struct live_opts *o, int c, const char *arg, const char **why)
{
	unsigned long long v;
	uint64_t size;
	char *end;

	switch (c) {
	case 'e':
		o->specs[o->nspecs++] = arg;
		o->live = true;
		return 1;
	case LIVE_OPT_STACKS: {
		const char *spec = o->nspecs ? o->specs[o->nspecs - 1] : NULL;
		size_t n = spec ? strlen(spec) : 0;
		char *s;

		if (!spec) {
			*why = "--stacks comes after the -e SPEC it is for";
			return -1;
		}
		if (n > 7 && !strcmp(spec + n - 7, "/stacks"))
			return 1;
		s = malloc(n + 8);
		if (!s) {
			*why = strerror(ENOMEM);
			return -1;
		}
		memcpy(s, spec, n);
		memcpy(s + n, "/stacks", 8);
		o->owned[o->nowned++] = s;
		o->specs[o->nspecs - 1] = s;
		return 1;
	}
	case LIVE_OPT_FILTER:
		o->filter = arg;
		return 1;
	case LIVE_OPT_BUFFER:
		errno = 0;
		v = strtoull(arg, &end, 10);
		if (errno || end == arg || *end || !v || v > 1024ull * 1024) {
			*why = "bad buffer size (KiB, 1 to 1048576)";
			return -1;
		}
		o->buffer = (size_t)v * 1024;
		return 1;
	case LIVE_OPT_SPOOL:
		if (live_size(arg, 1ull << 40, &size) || size < (1u << 20)) {
			*why = "bad spool size (1M to 1T, with a K, M or G suffix)";
			return -1;
		}
		o->spool_mem = (size_t)size;
		return 1;
	case LIVE_OPT_SAMPLING:
		o->live = true;
		o->hz = 1000;
		if (!arg)
			return 1;
		errno = 0;
		v = strtoull(arg, &end, 10);
		if (errno || end == arg || *end || !v ||
		    v > EHD_SESSION_HZ_MAX) {
			*why = "bad sampling frequency (Hz, 1 to 100000)";
			return -1;
		}
		o->hz = (unsigned int)v;
		return 1;
	case LIVE_OPT_OFF_CPU:
		o->live = true;
		o->off_cpu = true;
		return 1;
	case LIVE_OPT_DURATION:
		errno = 0;
		o->duration = strtod(arg, &end);
		if (errno || end == arg || *end || !(o->duration > 0) ||
		    o->duration > 1e9) {
			*why = "bad duration (seconds, more than 0, such as 2 or 0.5)";
			return -1;
		}
		return 1;
	case 'p':
		return add_pids(o, arg, why);
	case LIVE_OPT_CHILDREN:
		o->children = true;
		return 1;
	case 'C':
		return add_cpus(o, arg, why);
	default:
		return 0;
	}
}

int live_main(int argc, char **argv,
	      int (*run)(int argc, char **argv, struct live_opts *o))
{
	struct live_opts o = { .prog = argv[0], .out_fd = -1 };
	int ret;

	size_t i;

	o.specs = calloc((size_t)argc, sizeof(*o.specs));
	o.owned = calloc((size_t)argc, sizeof(*o.owned));
	if (!o.specs || !o.owned) {
		perror(argv[0]);
		free(o.specs);
		free(o.owned);
		return 1;
	}
	ret = run(argc, argv, &o);
	free(o.pids);
	free(o.cpus);
	for (i = 0; i < o.nowned; i++)
		free(o.owned[i]);
	free(o.owned);
	free(o.specs);
	return ret;
}

/*
 * Fork the command, held before its exec until release_child() (so that
 * -p command can aim at it before it runs). Its exec failure comes back
 * through a pipe.
 */
static int fork_child(struct live *l)
{
	int gate[2], ex[2], e = 0;
	char go;

	if (pipe2(gate, O_CLOEXEC))
		return -errno;
	if (pipe2(ex, O_CLOEXEC)) {
		e = errno;
		close(gate[0]);
		close(gate[1]);
		return -e;
	}
	l->child = fork();
	if (l->child < 0) {
		e = errno;
		close(gate[0]);
		close(gate[1]);
		close(ex[0]);
		close(ex[1]);
		l->child = 0;
		return -e;
	}
	if (!l->child) {
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGUSR2, SIG_DFL);
		close(gate[1]);
		close(ex[0]);
		/* One byte: go on; the end of the pipe: recording failed. */
		if (read(gate[0], &go, 1) != 1)
			_exit(127);
		execvp(l->o->command[0], l->o->command);
		e = errno;
		if (write(ex[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(gate[0]);
	close(ex[1]);
	l->child_gate = gate[1];
	l->child_exec = ex[0];
	return 0;
}

/* Let the command run; 0 once it has, or its exec failure. */
static int release_child(struct live *l)
{
	ssize_t n;
	int e = 0;

	n = write(l->child_gate, "g", 1);
	close(l->child_gate);
	l->child_gate = -1;
	if (n != 1)
		e = errno;
	else {
		do
			n = read(l->child_exec, &e, sizeof(e));
		while (n < 0 && errno == EINTR);
		if (n != (ssize_t)sizeof(e))
			e = 0;
	}
	close(l->child_exec);
	l->child_exec = -1;
	if (e) {
		waitpid(l->child, NULL, 0);
		l->child = 0;
		return -e;
	}
	return 0;
}

/* Recording did not start: the held command goes without running. */
static void drop_child(struct live *l)
{
	if (!l->child)
		return;
	close(l->child_gate);
	close(l->child_exec);
	l->child_gate = l->child_exec = -1;
	waitpid(l->child, NULL, 0);
	l->child = 0;
}

int live_start(struct live *l, const struct live_opts *o)
{
	size_t i;
	int err = 0;

	memset(l, 0, sizeof(*l));
	l->o = o;
	l->child_gate = l->child_exec = -1;
	live_catch_signals();	/* (done already by a tool with a file) */
	l->s = ehd_session_new(o->flags);
	if (!l->s) {
		fprintf(stderr, "%s: %s\n", o->prog, strerror(errno));
		return 1;
	}
	/*
	 * Aimed at the command: forked first, held before its exec while the
	 * session is aimed at it. Otherwise forked once recording runs, so
	 * that its fork is in the trace (with the mappings it inherits).
	 */
	if (o->command && o->aim_command) {
		err = fork_child(l);
		if (err) {
			fprintf(stderr, "%s: cannot run %s: %s\n", o->prog,
				o->command[0], strerror(-err));
			return 1;
		}
	}
	for (i = 0; i < o->nspecs && !err; i++)
		err = ehd_session_add(l->s, o->specs[i]);
	for (i = 0; i < o->npids && !err; i++)
		err = ehd_session_add_pid(l->s, o->pids[i]);
	if (!err && o->aim_command)
		err = ehd_session_add_pid(l->s, l->child);
	if (!err && o->children)
		err = ehd_session_set_children(l->s, true);
	if (!err && o->ncpus)
		err = ehd_session_set_cpus(l->s, o->cpus, o->ncpus);
	if (!err && o->max_size && o->out_fd >= 0)
		err = ehd_session_set_max_size(l->s, o->max_size, 0);
	else if (!err && o->switch_bytes && o->out_fd >= 0)
		err = ehd_session_set_max_size(l->s, o->switch_bytes,
					       EHD_SESSION_SIZE_SWITCH);
	if (!err && o->filter)
		err = ehd_session_set_filter(l->s, o->filter);
	if (!err && o->buffer)
		err = ehd_session_set_buffer(l->s, o->buffer);
	if (!err && o->cmdline)
		err = ehd_session_set_cmdline(l->s, o->cmdline);
	if (!err && o->hz)
		err = ehd_session_set_cpu_sampling(l->s, o->hz);
	if (!err && o->off_cpu)
		err = ehd_session_set_off_cpu(l->s, true);
	if (!err && o->read_after)
		err = ehd_session_set_latency(l->s, -1);
	if (!err && o->out_fd >= 0)
		err = ehd_session_set_output(l->s, o->out_fd);
	if (!err && (o->spool_mem || o->spool_disk))
		err = ehd_session_set_spool(l->s, o->spool_mem ? o->spool_mem :
					    EHD_SESSION_SPOOL_DEFAULT,
					    o->spool_disk, o->spool_dir);
	if (!err)
		err = ehd_session_start(l->s);
	if (err) {
		drop_child(l);
		fprintf(stderr, "%s: %s\n", o->prog, ehd_session_error(l->s));
		return 1;
	}
	l->started = l->last_status = l->file_started = now();
	return 0;
}

int live_run_command(struct live *l)
{
	int err = 0;

	if (!l->o->command)
		return 0;
	if (stop_signals) {
		/* Stopped while recording started: the command does not run. */
		drop_child(l);
		return 0;
	}
	if (!l->child)
		err = fork_child(l);
	if (!err)
		err = release_child(l);
	if (err) {
		fprintf(stderr, "%s: cannot run %s: %s\n", l->o->prog,
			l->o->command[0], strerror(-err));
		return 1;
	}
	return 0;
}

/* -p without a command: has any of the processes not exited yet? */
static bool aim_alive(const struct live_opts *o)
{
	size_t i;

	for (i = 0; i < o->npids; i++)
		if (!kill(o->pids[i], 0) || errno == EPERM)
			return true;
	return false;
}

bool live_running(struct live *l)
{
	int status;

	if (l->stopped || stop_signals || l->pipe_closed || l->limit_hit ||
	    l->no_room)
		return false;
	/* --duration stops as a signal does (wait_ms() wakes for it). */
	if (l->o->duration && now() - l->started >= l->o->duration)
		return false;
	if (l->child && l->child_gate < 0 &&
	    waitpid(l->child, &status, WNOHANG) == l->child) {
		l->child = 0;
		l->child_status = status;
		l->child_done = true;
	}
	if (!l->o->command && l->o->npids)
		return aim_alive(l->o);
	return !l->child_done;
}

/*
 * The status line: the events recorded are those the kernel wrote to the
 * rings, whether or not they are converted yet (a nettrace's events wait
 * in the rings until one is three quarters full, half with a small
 * spool, or the stop); where the kernel does not count them (before Linux
 * 6.0), those written.
 */
static void show_status(struct live *l, bool force)
{
	struct ehd_session_stats st;
	unsigned long long written;
	double t = now();

	if (!l->o->status || (!force && t - l->last_status < 0.5))
		return;
	l->last_status = t;
	ehd_session_stats(l->s, &st);
	written = st.bytes;
	if (l->w) {
		struct ehd_writer_stats ws;

		ehd_writer_stats(l->w, &ws);
		written = ws.bytes;
	}
	/*
	 * Recorded so far: in the rings too, where they wait for a pass.
	 * (The kernel does not count CPU samples; the drain thread's count
	 * of them waits for its passes: the end line says it.)
	 */
	fprintf(stderr, "\r%s: %.1f s, %llu events%s, %llu lost, %.1f MiB written",
		l->o->prog, t - l->started,
		(unsigned long long)(st.kernel_samples ? st.kernel_samples :
				     l->events),
		l->o->out_fd >= 0 && l->o->hz ? " and CPU samples" : "",
		(unsigned long long)st.lost, (double)written / 1048576.0);
	if (st.spool_pending >= (1u << 20))
		fprintf(stderr, ", %.1f MiB to convert",
			(double)st.spool_pending / 1048576.0);
	fputs("   ", stderr);
	l->status_shown = true;
}

/* The status line ends: a message comes on a line of its own. */
static void end_status(struct live *l)
{
	if (l->status_shown) {
		fputc('\n', stderr);
		l->status_shown = false;
	}
}

void live_pipe_closed(struct live *l)
{
	if (l->pipe_closed)
		return;
	l->pipe_closed = true;
	end_status(l);
	fprintf(stderr, "%s: the output's reader closed it (broken pipe): recording stopped\n",
		l->o->prog);
}

void live_limit_hit(struct live *l)
{
	if (l->limit_hit)
		return;
	l->limit_hit = true;
	end_status(l);
	fprintf(stderr, "%s: the file reached --max-size (%llu bytes): recording stopped\n",
		l->o->prog, (unsigned long long)l->o->max_size);
}

void live_no_room(struct live *l, struct ehd_writer *w)
{
	struct ehd_session_stats st;
	struct ehd_writer_stats ws;
	unsigned long long out;

	if (l->no_room)
		return;
	if (!w) {
		ehd_session_stats(l->s, &st);
		l->no_room = st.no_room;
		if (!l->no_room)
			return;	/* (a bound, not the room) */
		end_status(l);
		fprintf(stderr, "%s: no room for the file (%s): recording stopped; it ends with the last records that fit\n",
			l->o->prog, strerror(st.no_room));
		return;
	}
	ehd_writer_stats(w, &ws);
	l->no_room = ws.no_room;
	out = l->events - (l->events_before + ws.events);
	l->events = l->events_before + ws.events;
	end_status(l);
	fprintf(stderr, "%s: no room for the file (%s): recording stopped; the last %llu events converted did not fit\n",
		l->o->prog, strerror(ws.no_room), out);
}

/*
 * How long to wait for data: 100 ms while something is looked at by
 * polling (a status line, COMMAND or -p processes to outlive, a pipe, a
 * --switch-output clock, the --max-size of a perf.data the drain thread
 * writes), else a second; never past --duration. (A nettrace's
 * --max-size is reached here, by its writer.)
 */
static int wait_ms(const struct live *l)
{
	const struct live_opts *o = l->o;
	double ms = 100, left;

	if (o->read_after && !o->status && !o->command && !o->npids &&
	    !(o->max_size && o->out_fd >= 0))
		ms = 1000;
	if (o->duration) {
		left = (l->started + o->duration - now()) * 1000 + 1;
		if (left < ms)
			ms = left > 0 ? left : 0;
	}
	return (int)ms;
}

int live_wait(struct live *l)
{
	int err;

	if (snapshot_wanted && (l->o->flags & EHD_SESSION_CIRCULAR)) {
		snapshot_wanted = 0;
		err = ehd_session_snapshot(l->s);
		if (err) {
			fprintf(stderr, "%s: snapshot: %s\n", l->o->prog,
				ehd_session_error(l->s));
			return 1;
		}
		return 0;
	}
	show_status(l, false);
	err = ehd_session_poll(l->s, wait_ms(l));
	if (err == -EPIPE) {
		live_pipe_closed(l);
		return 0;
	}
	if (err == -EFBIG) {
		live_no_room(l, NULL);	/* (when that is why) */
		if (l->no_room)
			return 0;
	}
	if (err == -EFBIG && l->o->rotate) {
		l->file_full = true;	/* the next file takes the rest */
		return 0;
	}
	if (err == -EFBIG) {
		live_limit_hit(l);
		return 0;
	}
	if (err < 0 && err != -EINTR) {
		fprintf(stderr, "%s: %s\n", l->o->prog,
			ehd_session_error(l->s));
		return 1;
	}
	return 0;
}

int live_stop(struct live *l)
{
	if (l->stopped)
		return 0;
	l->stopped = true;
	/* With its reader gone, what is left has nowhere to go. */
	if (ehd_session_stop(l->s) && !l->pipe_closed) {
		fprintf(stderr, "%s: %s\n", l->o->prog, ehd_session_error(l->s));
		return 1;
	}
	return 0;
}

/* The file found no room: cut short (ehd_writer_stats() no_room). */
static bool no_room(const struct ehd_writer *w)
{
	struct ehd_writer_stats ws;

	ehd_writer_stats(w, &ws);
	return ws.no_room;
}

/*
 * Write one event; 0, 1 for a damaged one (reported), -1: output failed,
 * -2: the output is a pipe its reader closed, -3: the output is full
 * (--max-size), -4: the file found no room (live_no_room()).
 */
static int put_event(struct live *l, struct ehd_writer *w,
		     const struct ehd_event *ev)
{
	int werr = ehd_writer_event(w, ev);
	const char *why;
	uint64_t off = 0;

	if (werr >= 0 || (werr == -E2BIG && !ehd_writer_error(w, NULL)))
		return 0;	/* too large for the format: counted */
	if (werr == -EPIPE)
		return -2;
	if (no_room(w))
		return -4;
	if (werr == -EFBIG && (l->o->max_size || l->o->switch_bytes))
		return -3;
	why = ehd_writer_error(w, &off);
	if (!why)
		return -1;	/* ehd_writer_close() says why */
	fprintf(stderr, "%s: event of %.*s:%.*s: %s\n", l->o->prog,
		(int)ev->provider_len, ev->provider, (int)ev->name_len,
		ev->name, why);
	return 1;
}

/* What waits for conversion at the stop, if it takes a while. */
static void say_backlog(struct live *l)
{
	struct ehd_session_stats st;

	ehd_session_stats(l->s, &st);
	if (st.spool_pending < BACKLOG_SAY)
		return;
	end_status(l);
	fprintf(stderr, "%s: stopped; converting the %.1f MiB recorded before the stop (a second signal ends the file there)\n",
		l->o->prog, (double)st.spool_pending / 1048576.0);
}

/* The file is full: what the session still holds stays out of it; said. */
static void say_unwritten(struct live *l)
{
	struct ehd_session_stats st;
	char n[32];

	live_stop(l);
	ehd_session_stats(l->s, &st);
	if (st.spool_pending)
		fprintf(stderr, "%s: %s recorded up to the stop are not in the file\n",
			l->o->prog, size_text(st.spool_pending, n));
}

/* A second signal while converting: the rest is not converted; said. */
static void skip_backlog(struct live *l)
{
	struct ehd_session_stats st;

	ehd_session_stats(l->s, &st);
	fprintf(stderr, "%s: second signal: %.1f MiB recorded before the stop were not converted (their events are not in the file)\n",
		l->o->prog, (double)st.spool_pending / 1048576.0);
}

/* The events the session counted lost (by event, or from the rings). */
static uint64_t live_lost(struct live *l)
{
	struct ehd_session_stats st;

	ehd_session_stats(l->s, &st);
	return st.lost;
}

/* --switch-output=SECONDS: is this file's time up? */
static bool time_up(const struct live *l)
{
	return l->o->switch_secs && now() - l->file_started >= l->o->switch_secs;
}

/*
 * nettrace at a --switch-output boundary: *@w ended with its losses, the
 * next begun with the trace's @info. 0, or 1 (printed).
 */
static int next_writer(struct live *l, struct ehd_writer **w,
		       struct ehd_reader *r)
{
	const struct ehd_trace_info *info = ehd_reader_trace_info(r);
	uint64_t lost = live_lost(l);

	ehd_writer_end(*w);
	ehd_writer_add_lost(*w, lost - l->lost_before);
	l->lost_before = lost;
	if (l->o->rotate(l, w))
		return 1;	/* (*w, closed, still the file's) */
	l->events_before = l->events;
	l->w = *w;
	l->file_started = now();
	/* A system trace's processes and mappings, in this file too. */
	ehd_reader_restate(r);
	return ehd_writer_begin_trace(*w, "live", info) ? 1 : 0;
}

/*
 * A signal keep_converting() has not acted on: looked at for every event
 * converted (a load of a flag), where the rest of what it checks waits for
 * 1,024 events, whose conversion can take a good part of a second (a
 * sanitized build under TCG): a stop disables the events at once.
 */
static inline bool signal_pending(const struct live *l)
{
	return stop_signals > (l->stopped ? 1 : 0);
}

/*
 * Now and then while converting: the stop the command's end asks for, or
 * the end of the conversion a second signal asks for (false).
 */
static bool keep_converting(struct live *l, int *ret)
{
	if (!l->stopped && !live_running(l)) {
		if (live_stop(l))
			*ret = 1;
		else
			say_backlog(l);
	} else if (l->stopped && stop_signals >= 2) {
		skip_backlog(l);
		return false;
	}
	return true;
}

int live_write_events(struct live *l, struct ehd_writer **wp,
		      unsigned int reader_flags)
{
	struct ehd_writer *w = *wp;
	struct ehd_reader *r = ehd_reader_new(reader_flags);
	struct ehd_reader_stats rs;
	const struct ehd_event *ev;
	unsigned int n = 0;
	uint64_t passed = 0;	/* (none by the first ehd_reader_next()) */
	int err, ret = 0, k;

	if (!r || ehd_reader_open_session(r, l->s)) {
		fprintf(stderr, "%s: %s\n", l->o->prog,
			r ? ehd_reader_error(r, NULL) : strerror(errno));
		ehd_reader_free(r);
		return 1;
	}
	l->w = w;
	/* The session's description comes before its first event. */
	err = ehd_reader_next(r, &ev);
	ehd_writer_begin_trace(w, "live", ehd_reader_trace_info(r));
	for (;; err = ehd_reader_pass(r, w, &ev, &passed)) {
		l->events += passed;
		if (err > 0 && !ev) {
			/* The reader wrote EHD_PASS_MAX events itself. */
			if (l->o->rotate && time_up(l) &&
			    next_writer(l, &w, r)) {
				ret = 1;
				break;
			}
			if (!keep_converting(l, &ret))
				break;
			continue;
		}
		if (err > 0) {
			if (l->o->rotate && !(n % 64) && time_up(l) &&
			    next_writer(l, &w, r)) {
				ret = 1;
				break;
			}
			k = put_event(l, w, ev);
			if (k == -3 && l->o->rotate) {
				/* The file is full: in the next one. */
				if (next_writer(l, &w, r)) {
					ret = 1;
					break;
				}
				k = put_event(l, w, ev);
				if (k == -3)
					k = 0;	/* larger than a file: counted */
			}
			if (k == -2) {
				live_pipe_closed(l);
				break;
			}
			if (k == -3) {
				live_limit_hit(l);
				say_unwritten(l);
				break;
			}
			if (k == -4) {
				live_no_room(l, w);
				say_unwritten(l);
				ret = 1;
				break;
			}
			if (k < 0) {
				ret = 1;	/* ehd_writer_close() says why */
				break;
			}
			ret |= k;
			l->events++;
			if ((++n % 1024 && !signal_pending(l)) ||
			    keep_converting(l, &ret))
				continue;
			break;
		}
		if (err != -EAGAIN || l->stopped)
			break;	/* the end, or a failure */
		if (live_running(l)) {
			if (l->o->rotate && time_up(l) &&
			    next_writer(l, &w, r)) {
				ret = 1;
				break;
			}
			k = ehd_writer_flush(w);
			if (k == -EPIPE)
				live_pipe_closed(l);
			if (k == -EFBIG && no_room(w)) {
				live_no_room(l, w);
				say_unwritten(l);
				ret = 1;
			}
			if (k || live_wait(l) || l->pipe_closed)
				break;
		} else if (live_stop(l)) {
			ret = 1;	/* then take what is left */
		} else {
			say_backlog(l);
		}
	}
	if (err < 0 && err != -EAGAIN) {
		const char *why = ehd_reader_error(r, NULL);

		fprintf(stderr, "%s: live: %s\n", l->o->prog,
			why ? why : strerror(-err));
		ret = 1;
	}
	if (live_stop(l))
		ret = 1;
	/* The whole stream (with --circular, the snapshots'). */
	ehd_reader_stats(r, &rs);
	l->samples_read = rs.tracepoint_samples;
	l->read_all = !err;
	ehd_writer_end(w);
	live_report(l);
	report_reader(l->o->prog, "live", r, !live_lost(l));
	ehd_writer_add_lost(w, live_lost(l) ? live_lost(l) - l->lost_before :
			    report_lost(r));
	ehd_reader_free(r);
	l->w = NULL;
	*wp = w;
	return ret;
}

int live_write_perf(struct live *l)
{
	int ret = 0;

	while (live_running(l)) {
		if (live_wait(l)) {
			ret = 1;
			break;
		}
		if (l->o->rotate && (l->file_full || time_up(l))) {
			if (l->o->rotate(l, NULL)) {
				ret = 1;
				break;
			}
			l->file_full = false;
			l->file_started = now();
		}
	}
	if (live_stop(l))
		ret = 1;
	live_no_room(l, NULL);	/* (a snapshot, or the end, may find none) */
	live_report(l);
	return ret;
}

void live_report(struct live *l)
{
	struct ehd_session_stats st;
	char n[32];
	uint32_t i;

	if (l->status_shown) {
		show_status(l, true);
		fputc('\n', stderr);
	}
	ehd_session_stats(l->s, &st);
	if (st.limit_dropped)
		fprintf(stderr, "%s: %s recorded after the file %s are not in it\n",
			l->o->prog, size_text(st.limit_dropped, n),
			st.no_room ? "found no room" : "reached --max-size");
	if (st.spool_disk_peak || st.full_passes)
		fprintf(stderr, "%s: conversion fell behind: up to %.1f MiB waited in memory and %.1f MiB on disk%s\n",
			l->o->prog, (double)st.spool_peak / 1048576.0,
			(double)st.spool_disk_peak / 1048576.0,
			st.full_passes ?
			"; then the spool was full, and the rings had to wait (a larger --spool-size helps)" :
			"");
	if (!st.lost)
		return;
	fprintf(stderr, "%s: %llu events lost (the ring of a CPU was full):",
		l->o->prog, (unsigned long long)st.lost);
	for (i = 0; i < st.nr_cpus; i++)
		if (st.lost_per_cpu[i])
			fprintf(stderr, " cpu%u %llu", st.cpus[i],
				(unsigned long long)st.lost_per_cpu[i]);
	fprintf(stderr, "; a larger --buffer-size helps\n");
	for (i = 0; i < st.tracepoints; i++) {
		const char *name;
		uint64_t samples, lost;

		if (!ehd_session_tracepoint(l->s, i, &name, &samples, &lost) &&
		    lost)
			fprintf(stderr, "%s: %s: %llu lost of %llu\n",
				l->o->prog, name, (unsigned long long)lost,
				(unsigned long long)(samples + lost));
	}
}

void live_summary(const struct live *l, const char *output,
		  const char *last)
{
	struct report_recording rec = {
		.output = output,
		.last = last,
		.perf = l->o->out_fd >= 0,
		.cpu_samples = l->o->hz != 0,
		.events = l->events,
		.samples_read = l->samples_read,
		.read_all = l->read_all,
		.seconds = now() - l->started,
	};
	struct ehd_session_stats st;

	ehd_session_stats(l->s, &st);
	rec.cut = l->no_room || (rec.perf && st.no_room);
	report_recording(stderr, l->o->prog, &rec, &st);
}

int live_child_exit(const struct live *l)
{
	if (!l->child_done)
		return 0;
	if (WIFEXITED(l->child_status))
		return WEXITSTATUS(l->child_status);
	return 128 + WTERMSIG(l->child_status);
}

void live_free(struct live *l)
{
	int status;

	if (l->child && l->child_gate >= 0) {
		drop_child(l);
	} else if (l->child) {
		/* Stopped by a signal before the command ended: end it. */
		kill(l->child, SIGTERM);
		waitpid(l->child, &status, 0);
		l->child = 0;
	}
	ehd_session_free(l->s);
	l->s = NULL;
	/*
	 * The handlers stay: a signal that comes while the process ends
	 * (after the file is complete) must not kill it with a signal's
	 * status.
	 */
}
