// SPDX-License-Identifier: MIT
/*
 * session.c - live collection: tracepoint specs, tracefs lookups through
 * libtracefs, EventHeader pre-registration, perf_event_open() on every
 * CPU into one ring per CPU, and the rings read into a perf.data stream
 * in pipe mode (see ehdecode/session.h)
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <linux/membarrier.h>
#include <linux/perf_event.h>

#include <tracefs.h>

#include <eventheader/eh-uapi.h>
#include <eventheader/eventheader.h>

#include <ehdecode/session.h>

#include "live/aim.h"
#include "live/drain.h"
#include "core/ehd-buf.h"
#include "core/ehd-clock.h"
#include "formats/perf/perf-stream.h"
#include "live/session-int.h"
#include "live/spool.h"

#define RESCAN_NS (100 * 1000000ull)	/* how often to look for tracepoints */
#define BUFFER_MAX (1024u * 1024u * 1024u)
#define DRAIN_TIMEOUT_MS 100	/* longest wait between passes */
#define PERF_HEADER_SIZE 104	/* a normal-mode perf.data header */
#define SAMPLE_TYPE (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | \
		     PERF_SAMPLE_TIME | PERF_SAMPLE_CPU)

enum spec_kind {
	SPEC_TRACEPOINT,	/* system:event, exactly */
	SPEC_PROVIDER,		/* every user_events:<provider>_L*K* */
};

struct spec {
	enum spec_kind kind;
	char *system;
	char *event;		/* SPEC_PROVIDER: the provider name */
	bool callchain;		/* "/stacks": its samples carry stacks */
};

/*
 * One perf event opened on every ring (system-wide), or, in an aimed
 * session, on every ring for every thread of the aim.
 */
struct evset {
	size_t n;
	int *fds;
	uint64_t *ids;
	uint32_t *ring;		/* the ring each writes to */
	uint64_t *lost_base;	/* its losses in the files before this one */
};

/* A tracepoint being collected. */
struct tp {
	char *system;
	char *event;
	char *name;		/* "system:event" */
	uint64_t config;	/* its tracefs id */
	bool eventheader;	/* user_events with an EventHeader name */
	bool callchain;		/* its samples carry call chains */
	struct evset set;
};

/* The ring of one CPU; its own event is the dummy that gives COMM etc. */
struct ring {
	int cpu;
	int fd;
	void *base;		/* the mapping: control page, then data */
	uint8_t *data;
	uint64_t id;		/* the dummy event's sample id */
	uint64_t prev;		/* circular: data_head at the last snapshot */
	uint64_t lost_base;	/* losses in the files before this one */
};

enum state { NEW, STARTED, STOPPED };

struct ehd_session {
	unsigned int flags;
	enum state state;
	struct spec *specs;
	size_t nspecs;
	bool has_provider;
	struct tp **tps;
	size_t ntps;
	unsigned int hz;	/* CPU sampling frequency, 0 for none */
	bool off_cpu;		/* sched_switch with stacks */
	bool maps;		/* mappings: MMAP2 records, /proc maps */
	struct evset clock;	/* cpu-clock events */
	struct evset side;	/* aimed: COMM, MMAP2, FORK, EXIT of the aim */
	pid_t *pids;		/* the processes aimed at (none: every one) */
	size_t npids;
	bool children;		/* and the processes they start */
	/*
	 * Their processes and threads from /proc, read once for the start
	 * (every event opened on them, and their description); a tracepoint
	 * found later reads them again.
	 */
	struct ehd__aim_now aim;
	bool aim_read;
	int *only_cpus;		/* the CPUs to record (none: every one) */
	size_t nonly_cpus;
	uint64_t max_size;	/* of the output file; 0: no bound */
	struct ring *rings;
	size_t nrings;
	uint64_t *lost;		/* by ring */
	uint32_t *cpus;		/* by ring */
	size_t size;		/* ring data bytes, a power of two pages */
	size_t page;
	int latency_ms;		/* most between passes; -1: the watermark */
	char *filter;
	char **cmdline;
	int clockid;
	bool format_lost;	/* PERF_FORMAT_LOST works */
	bool no_mmap_build_id;	/* the kernel has no attr.build_id (< 5.12) */
	bool mapped;		/* every ring is open and mapped */

	int reg_fd;		/* user_events_data, for pre-registration */
	uint32_t **enable;	/* one enable word per registration */
	size_t nenable;

	struct ehd_buf out;	/* records to go out (descriptions, snapshots) */
	/*
	 * circular, into a file: the samples the snapshots wrote, counted
	 * as the drain thread counts its (s->clock's ids, sorted, apart)
	 */
	struct ehd__samples snap;
	uint64_t last_scan;

	/* where the stream goes: a spool read by the caller, or a file */
	int out_fd;		/* -1: the spool */
	bool normal;		/* out_fd is a normal-mode perf.data */
	struct ehd_buf meta;	/* normal mode: descriptions, for the end */
	size_t spool_mem;
	uint64_t spool_disk;
	size_t wakeup;		/* the rings' ehd__drain_watermark() */
	char *spool_dir;
	struct ehd__spool *spool;
	struct ehd__sink sink;
	struct ehd__drain_ring *drain_rings;
	struct ehd__drain *drain;
	bool ended;		/* the spool gave its last byte */

	char err[512];
};

static int fail(struct ehd_session *s, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int fail(struct ehd_session *s, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s->err, sizeof(s->err), fmt, ap);
	va_end(ap);
	return err;
}

static int sink_fail(struct ehd_session *s);
static int update_limit(struct ehd_session *s);

/* ---- names and specs ----------------------------------------------------- */

static bool name_chars(const char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)p[i]) && p[i] != '_')
			return false;
	return n > 0;
}

/* ehd_session_add() for @spec without its "/stacks". */
static int add_spec(struct ehd_session *s, const char *spec, bool callchain)
{
	const char *colon = strchr(spec, ':');
	struct spec *v, sp = { 0 };
	size_t i;

	sp.callchain = callchain;
	if (colon) {
		if (!name_chars(spec, (size_t)(colon - spec)) ||
		    !*(colon + 1) || strchr(colon + 1, ':') ||
		    strpbrk(colon + 1, " \t/"))
			return fail(s, -EINVAL,
				    "bad tracepoint '%s': want system:event", spec);
		sp.kind = SPEC_TRACEPOINT;
		sp.system = strndup(spec, (size_t)(colon - spec));
		sp.event = strdup(colon + 1);
	} else if (eh_parse_tracepoint_name(spec, NULL, NULL, NULL, NULL)) {
		sp.kind = SPEC_TRACEPOINT;
		sp.system = strdup("user_events");
		sp.event = strdup(spec);
	} else {
		if (!name_chars(spec, strlen(spec)))
			return fail(s, -EINVAL,
				    "bad spec '%s': want a provider (letters, digits, _), Provider_L<level>K<keyword>[G<group>] or system:event",
				    spec);
		sp.kind = SPEC_PROVIDER;
		sp.system = strdup("user_events");
		sp.event = strdup(spec);
		s->has_provider = true;
	}
	/* The same spec twice is one, with stacks if either asks. */
	for (i = 0; sp.system && sp.event && i < s->nspecs; i++)
		if (s->specs[i].kind == sp.kind &&
		    !strcmp(s->specs[i].system, sp.system) &&
		    !strcmp(s->specs[i].event, sp.event)) {
			s->specs[i].callchain |= sp.callchain;
			free(sp.system);
			free(sp.event);
			return 0;
		}
	v = realloc(s->specs, (s->nspecs + 1) * sizeof(*v));
	if (!sp.system || !sp.event || !v) {
		free(sp.system);
		free(sp.event);
		if (v)
			s->specs = v;
		return fail(s, -ENOMEM, "out of memory");
	}
	s->specs = v;
	s->specs[s->nspecs++] = sp;
	return 0;
}

EHD_API int ehd_session_add(struct ehd_session *s, const char *spec)
{
	const char *slash = strchr(spec, '/');
	char *copy;
	int err;

	if (s->state != NEW)
		return fail(s, -EBUSY, "the session has started");
	if (!slash)
		return add_spec(s, spec, false);
	if (strcmp(slash, "/stacks"))
		return fail(s, -EINVAL,
			    "bad spec '%s': the only suffix is /stacks", spec);
	copy = strndup(spec, (size_t)(slash - spec));
	if (!copy)
		return fail(s, -ENOMEM, "out of memory");
	err = add_spec(s, copy, true);
	free(copy);
	return err;
}

EHD_API int ehd_session_set_cpu_sampling(struct ehd_session *s,
					 unsigned int hz)
{
	if (s->state != NEW)
		return fail(s, -EBUSY, "the session has started");
	if (hz > EHD_SESSION_HZ_MAX)
		return fail(s, -EINVAL, "sampling frequency %u Hz: want 1 to %u",
			    hz, EHD_SESSION_HZ_MAX);
	s->hz = hz;
	return 0;
}

EHD_API int ehd_session_set_off_cpu(struct ehd_session *s, bool on)
{
	if (s->state != NEW)
		return fail(s, -EBUSY, "the session has started");
	s->off_cpu = on;
	return 0;
}

EHD_API int ehd_session_add_pid(struct ehd_session *s, pid_t pid)
{
	char path[32];
	pid_t *v;

	if (s->state != NEW)
		return fail(s, -EBUSY, "the session has started");
	snprintf(path, sizeof(path), "/proc/%d", (int)pid);
	if (pid <= 0 || access(path, F_OK))
		return fail(s, -ESRCH, "no process %d", (int)pid);
	v = realloc(s->pids, (s->npids + 1) * sizeof(*v));
	if (!v)
		return fail(s, -ENOMEM, "out of memory");
	s->pids = v;
	s->pids[s->npids++] = pid;
	return 0;
}

EHD_API int ehd_session_set_children(struct ehd_session *s, bool on)
{
	if (s->state != NEW)
		return fail(s, -EBUSY, "the session has started");
	s->children = on;
	return 0;
}

EHD_API int ehd_session_set_cpus(struct ehd_session *s, const int *cpus,
				 size_t n)
{
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	int *v = NULL;
	size_t i;

	if (s->state != NEW)
		return fail(s, -EBUSY, "the session has started");
	for (i = 0; i < n; i++)
		if (cpus[i] < 0 || cpus[i] >= ncpu)
			return fail(s, -EINVAL,
				    "no CPU %d: this machine has CPUs 0 to %ld",
				    cpus[i], ncpu - 1);
	if (n && !(v = malloc(n * sizeof(*v))))
		return fail(s, -ENOMEM, "out of memory");
	if (n)
		memcpy(v, cpus, n * sizeof(*v));
	free(s->only_cpus);
	s->only_cpus = v;
	s->nonly_cpus = n;
	return 0;
}

EHD_API int ehd_session_set_max_size(struct ehd_session *s, uint64_t bytes,
				     unsigned int flags)
{
	if (s->state != NEW)
		return fail(s, -EBUSY, "the session has started");
	if (flags & ~EHD_SESSION_SIZE_SWITCH)
		return fail(s, -EINVAL, "unknown flags");
	s->max_size = bytes;
	s->sink.limit_hold = flags & EHD_SESSION_SIZE_SWITCH;
	return 0;
}

/* ---- setup --------------------------------------------------------------- */

EHD_API struct ehd_session *ehd_session_new(unsigned int flags)
{
	struct ehd_session *s;

	if (flags & ~(EHD_SESSION_CIRCULAR | EHD_SESSION_CALLCHAIN |
		      EHD_SESSION_CLOCK_RAW)) {
		errno = EINVAL;
		return NULL;
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->flags = flags;
	s->reg_fd = -1;
	s->out_fd = -1;
	s->spool_mem = EHD_SESSION_SPOOL_DEFAULT;
	s->page = (size_t)sysconf(_SC_PAGESIZE);
	s->size = EHD_SESSION_BUFFER_DEFAULT;
	s->latency_ms = DRAIN_TIMEOUT_MS;
	s->clockid = flags & EHD_SESSION_CLOCK_RAW ? CLOCK_MONOTONIC_RAW :
						      CLOCK_MONOTONIC;
	return s;
}

EHD_API int ehd_session_set_filter(struct ehd_session *s, const char *expr)
{
	char *f = NULL;

	if (s->state != NEW)
		return fail(s, -EBUSY, "the session has started");
	if (expr && !(f = strdup(expr)))
		return fail(s, -ENOMEM, "out of memory");
	free(s->filter);
	s->filter = f;
	return 0;
}

EHD_API int ehd_session_set_buffer(struct ehd_session *s, size_t bytes)
{
	size_t size = 2 * s->page;

	if (s->state != NEW)
		return fail(s, -EBUSY, "the session has started");
	if (!bytes || bytes > BUFFER_MAX)
		return fail(s, -EINVAL, "buffer size %zu: want 1 byte to 1 GiB",
			    bytes);
	while (size < bytes)
		size *= 2;
	s->size = size;
	return 0;
}

EHD_API int ehd_session_set_latency(struct ehd_session *s, int ms)
{
	if (s->state != NEW)
		return fail(s, -EBUSY, "the session has started");
	if (ms < -1)
		return fail(s, -EINVAL, "latency %d ms: want -1 or more", ms);
	s->latency_ms = ms;
	return 0;
}

EHD_API int ehd_session_set_output(struct ehd_session *s, int fd)
{
	struct stat st;

	if (s->state != NEW)
		return fail(s, -EBUSY, "the session has started");
	if (fd < 0)
		return fail(s, -EBADF, "bad file descriptor");
	if (fstat(fd, &st))
		return fail(s, -errno, "output: %s", strerror(errno));
	s->out_fd = fd;
	s->normal = S_ISREG(st.st_mode) && lseek(fd, 0, SEEK_CUR) == 0;
	return 0;
}

EHD_API int ehd_session_set_spool(struct ehd_session *s, size_t memory,
				  uint64_t disk, const char *dir)
{
	char *d = NULL;

	if (s->state != NEW)
		return fail(s, -EBUSY, "the session has started");
	if (!memory)
		return fail(s, -EINVAL, "spool memory of 0 bytes");
	if (disk && dir && !(d = strdup(dir)))
		return fail(s, -ENOMEM, "out of memory");
	free(s->spool_dir);
	s->spool_dir = d;
	s->spool_mem = memory;
	s->spool_disk = d ? disk : 0;
	return 0;
}

EHD_API int ehd_session_set_cmdline(struct ehd_session *s,
				    const char *const *argv)
{
	size_t n = 0, i;
	char **v;

	if (s->state != NEW)
		return fail(s, -EBUSY, "the session has started");
	while (argv[n])
		n++;
	v = calloc(n + 1, sizeof(*v));
	if (!v)
		return fail(s, -ENOMEM, "out of memory");
	for (i = 0; i < n; i++)
		if (!(v[i] = strdup(argv[i])))
			break;
	if (i < n) {
		while (i)
			free(v[--i]);
		free(v);
		return fail(s, -ENOMEM, "out of memory");
	}
	if (s->cmdline)
		for (i = 0; s->cmdline[i]; i++)
			free(s->cmdline[i]);
	free(s->cmdline);
	s->cmdline = v;
	return 0;
}

static void set_free(struct evset *e)
{
	size_t i;

	for (i = 0; i < e->n; i++)
		close(e->fds[i]);
	free(e->fds);
	free(e->ids);
	free(e->ring);
	free(e->lost_base);
	memset(e, 0, sizeof(*e));
}

static void free_tp(struct tp *t)
{
	if (!t)
		return;
	set_free(&t->set);
	free(t->system);
	free(t->event);
	free(t->name);
	free(t);
}

EHD_API void ehd_session_free(struct ehd_session *s)
{
	size_t i;

	if (!s)
		return;
	if (s->state == STARTED)
		ehd_session_stop(s);
	ehd__drain_free(s->drain);
	ehd__spool_free(s->spool);
	free((void *)s->snap.skip);
	free(s->drain_rings);
	free(s->spool_dir);
	ehd__buf_free(&s->meta);
	for (i = 0; i < s->ntps; i++)
		free_tp(s->tps[i]);
	free(s->tps);
	set_free(&s->clock);
	set_free(&s->side);
	free(s->pids);
	ehd__aim_free(&s->aim);
	free(s->only_cpus);
	for (i = 0; i < s->nrings; i++) {
		if (s->rings[i].base)
			munmap(s->rings[i].base, s->page + s->size);
		if (s->rings[i].fd >= 0)
			close(s->rings[i].fd);
	}
	free(s->rings);
	free(s->lost);
	free(s->cpus);
	if (s->reg_fd >= 0)
		close(s->reg_fd);	/* drops the registrations */
	for (i = 0; i < s->nenable; i++)
		free(s->enable[i]);
	free(s->enable);
	for (i = 0; i < s->nspecs; i++) {
		free(s->specs[i].system);
		free(s->specs[i].event);
	}
	free(s->specs);
	if (s->cmdline)
		for (i = 0; s->cmdline[i]; i++)
			free(s->cmdline[i]);
	free(s->cmdline);
	free(s->filter);
	ehd__buf_free(&s->out);
	free(s);
}

/* ---- tracefs ------------------------------------------------------------- */

/* Is tracefs there and readable? 0, or the failure with what to do. */
static int check_tracefs(struct ehd_session *s)
{
	const char *dir = tracefs_tracing_dir();
	char path[4200];

	if (!dir)
		return fail(s, -ENOENT,
			    "no tracefs: it is not mounted (as root: mount -t tracefs nodev /sys/kernel/tracing)");
	snprintf(path, sizeof(path), "%s/events", dir);
	if (access(path, R_OK | X_OK))
		return fail(s, errno == ENOENT ? -ENOENT : -EACCES,
			    "cannot read %s: %s (run as root, or give this user access to tracefs and perf: see docs/live-collection.md)",
			    path, strerror(errno));
	return 0;
}

/* The tracefs id of system:event: 0, -ENOENT, or another failure. */
static int tracepoint_id(struct ehd_session *s, const char *system,
			 const char *event, uint64_t *id)
{
	char *text, *end;
	int size = 0;

	text = tracefs_event_file_read(NULL, system, event, "id", &size);
	if (!text) {
		int e = errno ? errno : ENOENT;

		if (e == ENOENT)
			return -ENOENT;
		return fail(s, -e, "cannot read the id of %s:%s: %s", system,
			    event, strerror(e));
	}
	errno = 0;
	*id = strtoull(text, &end, 10);
	if (errno || end == text) {
		free(text);
		return fail(s, -EBADMSG, "%s:%s has a bad id file", system,
			    event);
	}
	free(text);
	return 0;
}

/* Register an EventHeader tracepoint and hold it while the session lives. */
static int pre_register(struct ehd_session *s, const char *name)
{
	char command[EH_COMMAND_MAX + 64];
	struct eh__user_reg reg;
	uint32_t **v, *word;

	if (s->reg_fd < 0) {
		char path[4200];

		snprintf(path, sizeof(path), "%s/user_events_data",
			 tracefs_tracing_dir());
		s->reg_fd = open(path, O_RDWR | O_CLOEXEC);
		if (s->reg_fd < 0) {
			int e = errno;

			if (e == ENOENT)
				return fail(s, -ENOENT,
					    "%s does not exist: this kernel has no user_events (CONFIG_USER_EVENTS, Linux 6.4 or later)",
					    path);
			return fail(s, -e, "cannot open %s to register %s: %s",
				    path, name, strerror(e));
		}
	}
	if ((size_t)snprintf(command, sizeof(command), "%s %s", name,
			     EH_COMMAND_TYPES) >= sizeof(command))
		return fail(s, -EINVAL, "tracepoint name too long: %s", name);
	v = realloc(s->enable, (s->nenable + 1) * sizeof(*v));
	if (!v)
		return fail(s, -ENOMEM, "out of memory");
	s->enable = v;
	word = calloc(1, sizeof(*word));
	if (!word)
		return fail(s, -ENOMEM, "out of memory");
	memset(&reg, 0, sizeof(reg));
	reg.size = sizeof(reg);
	reg.enable_size = sizeof(*word);
	reg.enable_addr = (uint64_t)(uintptr_t)word;
	reg.name_args = (uint64_t)(uintptr_t)command;
	if (ioctl(s->reg_fd, EH__DIAG_IOCSREG, &reg) < 0) {
		int e = errno;

		free(word);
		return fail(s, -e, "cannot register user_events:%s: %s", name,
			    e == EADDRINUSE ?
			    "it exists with other fields (not an EventHeader tracepoint)" :
			    strerror(e));
	}
	s->enable[s->nenable++] = word;
	return 0;
}

/* ---- perf ---------------------------------------------------------------- */

static int perf_open(struct perf_event_attr *a, pid_t pid, int cpu)
{
	return (int)syscall(SYS_perf_event_open, a, pid, cpu, -1,
			    PERF_FLAG_FD_CLOEXEC);
}

/*
 * perf_open_into() - open an event whose samples go to the ring of event
 * @ring_fd from the first: an enabled event opened alone, then given its
 * ring, counts what it takes in between (a tracepoint's program writes
 * from the open) and writes it nowhere, so the count would say more than
 * the file holds. Where the kernel refuses (PERF_FLAG_FD_OUTPUT), @*later
 * is set: the caller gives the ring with PERF_EVENT_IOC_SET_OUTPUT.
 */
static int perf_open_into(struct perf_event_attr *a, pid_t pid, int cpu,
			  int ring_fd, bool *later)
{
	int fd = (int)syscall(SYS_perf_event_open, a, pid, cpu, ring_fd,
			      PERF_FLAG_FD_CLOEXEC | PERF_FLAG_FD_OUTPUT |
			      PERF_FLAG_FD_NO_GROUP);

	*later = fd < 0 && errno == EINVAL;
	return *later ? perf_open(a, pid, cpu) : fd;
}

static void base_attr(const struct ehd_session *s, struct perf_event_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->sample_period = 1;
	a->sample_type = SAMPLE_TYPE;
	a->read_format = PERF_FORMAT_ID |
			 (s->format_lost ? PERF_FORMAT_LOST : 0);
	a->disabled = 1;
	a->sample_id_all = 1;
	a->use_clockid = 1;
	a->clockid = s->clockid;
	a->watermark = 1;
	a->wakeup_watermark = (uint32_t)s->wakeup;
	a->write_backward = !!(s->flags & EHD_SESSION_CIRCULAR);
}

/*
 * Events on the aim's threads follow the threads those start, and with
 * --children the processes too (inherit_thread: Linux 5.13).
 */
static void aim_attr(const struct ehd_session *s, struct perf_event_attr *a)
{
	if (!s->npids)
		return;
	a->inherit = 1;
	a->inherit_thread = !s->children;
}

/* A dummy event, with the side-band records (COMM, FORK, EXIT, MMAP2). */
static void dummy_attr(const struct ehd_session *s, struct perf_event_attr *a,
		       bool sideband)
{
	base_attr(s, a);
	a->type = PERF_TYPE_SOFTWARE;
	a->config = PERF_COUNT_SW_DUMMY;
	if (!sideband)
		return;
	a->comm = 1;
	a->comm_exec = 1;
	a->task = 1;
	if (s->maps) {
		/*
		 * Executable mappings, with file names (MMAP2), and their
		 * files' build ids as the kernel has them (Linux 5.12): a
		 * mapping's metadata needs no file read then.
		 */
		a->mmap = 1;
		a->mmap2 = 1;
		a->build_id = !s->no_mmap_build_id;
	}
}

/*
 * The event that owns a CPU's ring gives the side-band records of every
 * process; in an aimed session none (side_attr()'s give the aim's).
 */
static void ring_attr(const struct ehd_session *s, struct perf_event_attr *a)
{
	dummy_attr(s, a, !s->npids);
}

/*
 * With --off-cpu, context switch records too: sched_switch samples on the
 * aim's threads show them leave, these show them come back.
 */
static void side_attr(const struct ehd_session *s, struct perf_event_attr *a)
{
	dummy_attr(s, a, true);
	aim_attr(s, a);
	a->context_switch = s->off_cpu;
	a->disabled = 0;
}

/* CPU sampling: the cpu-clock software event at @hz, with stacks. */
static void clock_attr(const struct ehd_session *s, struct perf_event_attr *a)
{
	base_attr(s, a);
	a->type = PERF_TYPE_SOFTWARE;
	a->config = PERF_COUNT_SW_CPU_CLOCK;
	a->freq = 1;
	a->sample_freq = s->hz;
	a->sample_type |= PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN |
			  PERF_SAMPLE_PERIOD;
	aim_attr(s, a);
}

static void tp_attr(const struct ehd_session *s, const struct tp *t,
		    struct perf_event_attr *a)
{
	base_attr(s, a);
	a->type = PERF_TYPE_TRACEPOINT;
	a->config = t->config;
	/*
	 * Enabled from the start: opening the event is what makes a program
	 * see its tracepoint enabled, and writing follows at once. The event
	 * writes to its ring from the open (perf_open_into()); one with a
	 * filter is opened disabled and enabled once the filter is on
	 * (set_open()), so no sample escapes it.
	 */
	a->disabled = 0;
	a->sample_type |= PERF_SAMPLE_RAW;
	if ((s->flags & EHD_SESSION_CALLCHAIN) || t->callchain)
		a->sample_type |= PERF_SAMPLE_CALLCHAIN;
	aim_attr(s, a);
}

/* Why perf_event_open() failed, and what to do about it. */
static int perf_fail(struct ehd_session *s, int e, const char *what)
{
	char paranoid[16] = "?";
	FILE *fp;

	if (e != EACCES && e != EPERM)
		return fail(s, -e, "perf_event_open %s: %s", what, strerror(e));
	fp = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	if (fp) {
		if (!fgets(paranoid, sizeof(paranoid), fp))
			strcpy(paranoid, "?");
		paranoid[strcspn(paranoid, "\n")] = 0;
		fclose(fp);
	}
	return fail(s, -e,
		    "perf_event_open %s: %s: tracepoints on every CPU need root or CAP_PERFMON, or kernel.perf_event_paranoid = -1 (it is %s)%s",
		    what, strerror(e), paranoid,
		    s->npids ? "; another user's process needs root or CAP_PERFMON" : "");
}

static bool cpu_wanted(const struct ehd_session *s, int cpu)
{
	size_t i;

	for (i = 0; i < s->nonly_cpus; i++)
		if (s->only_cpus[i] == cpu)
			return true;
	return !s->nonly_cpus;
}

size_t ehd__session_watermark(const struct ehd_session *s, size_t ncpu)
{
	size_t nrings = s->nonly_cpus ? s->nonly_cpus : ncpu;

	return ehd__drain_watermark(s->size, nrings, s->latency_ms >= 0,
				    s->out_fd < 0 ?
				    s->spool_mem + s->spool_disk : 0);
}

/* Open the rings: one dummy event per online CPU (of those asked), mapped. */
static int open_rings(struct ehd_session *s)
{
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	struct perf_event_attr a;
	int cpu;

	if (ncpu < 1)
		ncpu = 1;
	s->wakeup = ehd__session_watermark(s, (size_t)ncpu);
	s->rings = calloc((size_t)ncpu, sizeof(*s->rings));
	s->lost = calloc((size_t)ncpu, sizeof(*s->lost));
	s->cpus = calloc((size_t)ncpu, sizeof(*s->cpus));
	s->drain_rings = calloc((size_t)ncpu, sizeof(*s->drain_rings));
	if (!s->rings || !s->lost || !s->cpus || !s->drain_rings)
		return fail(s, -ENOMEM, "out of memory");
	s->format_lost = true;
	for (cpu = 0; cpu < ncpu; cpu++) {
		struct ring *rg = &s->rings[s->nrings];
		int prot = PROT_READ;
		int fd;

		if (!cpu_wanted(s, cpu))
			continue;
		ring_attr(s, &a);
		fd = perf_open(&a, -1, cpu);
		if (fd < 0 && errno == EINVAL && a.build_id) {
			/* Before Linux 5.12: no build ids in MMAP2. */
			s->no_mmap_build_id = true;
			ring_attr(s, &a);
			fd = perf_open(&a, -1, cpu);
		}
		if (fd < 0 && errno == EINVAL && s->format_lost) {
			/* Before Linux 6.0: no PERF_FORMAT_LOST. */
			s->format_lost = false;
			ring_attr(s, &a);
			fd = perf_open(&a, -1, cpu);
		}
		if (fd < 0 && (errno == ENODEV || errno == ENOENT) &&
		    s->nonly_cpus)
			return fail(s, -ENODEV, "CPU %d is offline", cpu);
		if (fd < 0 && (errno == ENODEV || errno == ENOENT))
			continue;	/* offline */
		if (fd < 0)
			return perf_fail(s, errno, "(dummy event for the ring)");
		rg->cpu = cpu;
		rg->fd = fd;
		if (!(s->flags & EHD_SESSION_CIRCULAR))
			prot |= PROT_WRITE;
		/*
		 * Its pages in the page tables now, not faulted in by the
		 * drain thread as it first reads them under load.
		 */
		rg->base = mmap(NULL, s->page + s->size, prot,
				MAP_SHARED | MAP_POPULATE, fd, 0);
		if (rg->base == MAP_FAILED) {
			int e = errno;

			rg->base = NULL;
			s->nrings++;
			return fail(s, -e,
				    "cannot map a %zu KiB ring for CPU %d: %s%s",
				    s->size / 1024, cpu, strerror(e),
				    e == EPERM || e == ENOMEM ?
				    " (use a smaller buffer size, or raise kernel.perf_event_mlock_kb)" :
				    "");
		}
		rg->data = (uint8_t *)rg->base + s->page;
		if (ioctl(fd, PERF_EVENT_IOC_ID, &rg->id))
			return fail(s, -errno, "PERF_EVENT_IOC_ID: %s",
				    strerror(errno));
		s->cpus[s->nrings] = (uint32_t)cpu;
		s->drain_rings[s->nrings] = (struct ehd__drain_ring){
			fd, rg->base, rg->data };
		s->nrings++;
	}
	if (!s->nrings)
		return fail(s, -ENODEV, "no CPU is online");
	s->mapped = true;
	return 0;
}

/*
 * The aim's processes and threads now: read once for the start, again for
 * each later use (s->aim_read is cleared once started).
 */
static int read_aim(struct ehd_session *s)
{
	if (s->aim_read)
		return 0;
	ehd__aim_free(&s->aim);
	if (ehd__aim_read(s->pids, s->npids, s->children, &s->aim))
		return fail(s, -ENOMEM, "out of memory");
	s->aim_read = s->state == NEW;
	return 0;
}

/*
 * Open @a into @e: on every ring, or in an aimed session on every ring for
 * each thread the aim has now (threads that end meanwhile are left out),
 * each event writing to its CPU's ring; with @filter, the kernel filter
 * set on each. @what names the event in messages.
 */
static int set_open(struct ehd_session *s, struct evset *e,
		    struct perf_event_attr *a, const char *what,
		    const char *filter)
{
	size_t ntasks = 1, k, i, n;
	int err = 0;

	if (s->npids) {
		err = read_aim(s);
		if (err)
			return err;
		ntasks = s->aim.ntasks;
	}
	/*
	 * With a filter, disabled until it is on: the open still registers
	 * the tracepoint (a program sees it enabled), but nothing is
	 * sampled before the filter applies.
	 */
	if (filter)
		a->disabled = 1;
	n = ntasks * s->nrings;
	e->fds = malloc((n ? n : 1) * sizeof(*e->fds));
	e->ids = calloc(n ? n : 1, sizeof(*e->ids));
	e->ring = calloc(n ? n : 1, sizeof(*e->ring));
	e->lost_base = calloc(n ? n : 1, sizeof(*e->lost_base));
	if (!e->fds || !e->ids || !e->ring || !e->lost_base)
		return fail(s, -ENOMEM, "out of memory");
	for (k = 0; k < ntasks && !err; k++) {
		for (i = 0; i < s->nrings && !err; i++) {
			pid_t tid = s->npids ? s->aim.tasks[k] : -1;
			bool later;
			int fd = perf_open_into(a, tid, s->rings[i].cpu,
						s->rings[i].fd, &later);

			if (fd < 0 && tid > 0 && errno == ESRCH)
				break;	/* the thread ended */
			if (fd < 0) {
				err = perf_fail(s, errno, what);
				break;
			}
			e->fds[e->n] = fd;
			e->ring[e->n] = (uint32_t)i;
			e->n++;
			if (filter &&
			    ioctl(fd, PERF_EVENT_IOC_SET_FILTER, filter))
				err = fail(s, -EINVAL,
					   "the kernel refused the filter '%s' on %s: %s (fields: eventheader_flags, version, id, tag, opcode, level)",
					   filter, what, strerror(errno));
			else if ((later && ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT,
						 s->rings[i].fd)) ||
				 ioctl(fd, PERF_EVENT_IOC_ID,
				       &e->ids[e->n - 1]))
				err = fail(s, -errno,
					   "%s: cannot share the ring: %s",
					   what, strerror(errno));
			else if (filter &&
				 ioctl(fd, PERF_EVENT_IOC_ENABLE, 0))
				err = fail(s, -errno, "cannot enable %s: %s",
					   what, strerror(errno));
		}
	}
	return err;
}

static void set_ioctl(const struct evset *e, unsigned long request)
{
	size_t i;

	for (i = 0; i < e->n; i++)
		ioctl(e->fds[i], request, 0);
}

/* Open @t, its samples going to the rings. */
static int open_tp(struct ehd_session *s, struct tp *t)
{
	struct perf_event_attr a;

	tp_attr(s, t, &a);
	return set_open(s, &t->set, &a, t->name,
			t->eventheader ? s->filter : NULL);
}

static bool have_tp(const struct ehd_session *s, const char *system,
		    const char *event)
{
	size_t i;

	for (i = 0; i < s->ntps; i++)
		if (!strcmp(s->tps[i]->system, system) &&
		    !strcmp(s->tps[i]->event, event))
			return true;
	return false;
}

/* Add system:event (it exists: @config is its id), opened. */
static int add_tp(struct ehd_session *s, const char *system, const char *event,
		  uint64_t config, bool callchain, struct tp **tpp)
{
	struct tp **v, *t = calloc(1, sizeof(*t));
	int err;

	if (!t)
		return fail(s, -ENOMEM, "out of memory");
	t->system = strdup(system);
	t->event = strdup(event);
	if (asprintf(&t->name, "%s:%s", system, event) < 0)
		t->name = NULL;
	t->config = config;
	t->callchain = callchain;
	t->eventheader = !strcmp(system, "user_events") &&
			 eh_parse_tracepoint_name(event, NULL, NULL, NULL,
						  NULL);
	v = realloc(s->tps, (s->ntps + 1) * sizeof(*v));
	if (!t->system || !t->event || !t->name || !v) {
		if (v)
			s->tps = v;
		free_tp(t);
		return fail(s, -ENOMEM, "out of memory");
	}
	s->tps = v;
	s->tps[s->ntps++] = t;
	err = open_tp(s, t);
	*tpp = t;
	return err;
}

/* Records describing @t: its attr and name. */
static void describe_tp(struct ehd_session *s, const struct tp *t,
			struct ehd_buf *b)
{
	struct perf_event_attr a;

	if (!t->set.n)
		return;		/* the aim's processes have ended */
	tp_attr(s, t, &a);
	ehd__ps_attr(b, &a, t->set.ids, t->set.n);
	ehd__ps_event_name(b, t->set.ids[0], t->name);
}

/* A tracing data record with the formats of every tracepoint so far. */
static int describe_formats(struct ehd_session *s, struct ehd_buf *b)
{
	struct ehd__ps_tracepoint *v;
	char why[400];
	size_t i;
	int err;

	v = calloc(s->ntps ? s->ntps : 1, sizeof(*v));
	if (!v)
		return fail(s, -ENOMEM, "out of memory");
	for (i = 0; i < s->ntps; i++) {
		v[i].system = s->tps[i]->system;
		v[i].event = s->tps[i]->event;
	}
	why[0] = 0;
	err = ehd__ps_tracing_data(b, v, s->ntps, why, sizeof(why));
	free(v);
	if (err)
		return fail(s, err, "%s", why);
	return 0;
}

/*
 * Descriptions made while running (in s->out) go where they belong: with
 * a normal-mode file, to the end; through the drain thread, before the
 * ring data of its next pass (the caller holds its lock: see
 * scan_providers()); in a circular session, into the stream now, before
 * the next snapshot.
 */
static int emit_descriptions(struct ehd_session *s)
{
	int err = 0;

	if (s->out.err)
		err = -ENOMEM;
	else if (s->normal)
		ehd__buf_put(&s->meta, s->out.p, s->out.len);
	else if (s->drain)
		err = ehd__drain_side_locked(s->drain, s->out.p, s->out.len);
	else
		err = ehd__sink_put(&s->sink, s->out.p, s->out.len);
	s->out.len = 0;
	if (!err && s->meta.err)
		err = -ENOMEM;
	if (err)
		return fail(s, err, "cannot describe new tracepoints: %s",
			    strerror(-err));
	/* The bound moves with what the file's end is to hold. */
	return s->out_fd >= 0 ? update_limit(s) : 0;
}

/* The provider spec user_events:@event belongs to, or NULL. */
static const struct spec *provider_wants(const struct ehd_session *s,
					 const char *event)
{
	size_t plen, i;

	if (!eh_parse_tracepoint_name(event, &plen, NULL, NULL, NULL))
		return NULL;
	for (i = 0; i < s->nspecs; i++)
		if (s->specs[i].kind == SPEC_PROVIDER &&
		    strlen(s->specs[i].event) == plen &&
		    !memcmp(s->specs[i].event, event, plen))
			return &s->specs[i];
	return NULL;
}

/*
 * Add the user_events tracepoints of provider specs not collected yet.
 * Once started, they are described in the stream before any of their
 * samples: the drain thread's lock is held from before the first is
 * opened until the descriptions are handed over, so that a pass
 * that takes one of their samples also takes the descriptions first.
 */
static int scan_providers(struct ehd_session *s)
{
	char **list = tracefs_system_events(NULL, "user_events");
	size_t first = s->ntps, i;
	bool locked = false;
	int err = 0;

	s->last_scan = ehd__now_ns(CLOCK_MONOTONIC);
	if (!list)
		return 0;	/* no user_events yet */
	for (i = 0; list[i] && !err; i++) {
		const struct spec *sp = provider_wants(s, list[i]);
		uint64_t id;
		struct tp *t;

		if (!sp || have_tp(s, "user_events", list[i]))
			continue;
		err = tracepoint_id(s, "user_events", list[i], &id);
		if (err == -ENOENT) {
			err = 0;	/* gone again */
			continue;
		}
		if (!err && s->drain && !s->normal && !locked) {
			ehd__drain_lock(s->drain);
			locked = true;
		}
		if (!err)
			err = add_tp(s, "user_events", list[i], id,
				     sp->callchain, &t);
	}
	tracefs_list_free(list);
	if (!err && s->state == STARTED && first < s->ntps) {
		for (i = first; i < s->ntps; i++)
			describe_tp(s, s->tps[i], &s->out);
		err = describe_formats(s, &s->out);
		if (!err)
			err = emit_descriptions(s);
	}
	if (locked)
		ehd__drain_unlock(s->drain);
	return err;
}

/* The tracepoints of exact specs, registered first where needed. */
static int add_exact(struct ehd_session *s, const struct spec *sp)
{
	const struct spec *prov = !strcmp(sp->system, "user_events") ?
				  provider_wants(s, sp->event) : NULL;
	uint64_t id;
	struct tp *t;
	int err;

	if (have_tp(s, sp->system, sp->event))
		return 0;
	err = tracepoint_id(s, sp->system, sp->event, &id);
	if (err == -ENOENT && !strcmp(sp->system, "user_events") &&
	    eh_parse_tracepoint_name(sp->event, NULL, NULL, NULL, NULL)) {
		err = pre_register(s, sp->event);
		if (err)
			return err;
		err = tracepoint_id(s, sp->system, sp->event, &id);
	}
	if (err == -ENOENT)
		return fail(s, -ENOENT, "no tracepoint %s:%s in %s/events",
			    sp->system, sp->event, tracefs_tracing_dir());
	if (err)
		return err;
	/* Its provider's spec may ask for stacks too: it finds it added. */
	return add_tp(s, sp->system, sp->event, id,
		      sp->callchain || (prov && prov->callchain), &t);
}

static bool is_sched_switch(const char *system, const char *event)
{
	return !strcmp(system, "sched") && !strcmp(event, "sched_switch");
}

/* Whether the @n bytes at @w are the string @s. */
static bool is_word(const char *w, size_t n, const char *s)
{
	return strlen(s) == n && !memcmp(w, s, n);
}

/* Whether the @n bytes at @spec are sched:sched_switch[/stacks]. */
static bool names_switch(const char *spec, size_t n)
{
	return is_word(spec, n, "sched:sched_switch") ||
	       is_word(spec, n, "sched:sched_switch/stacks");
}

/* ehrecord's short options that take an argument (tools/ehrecord.c). */
static const char cmdline_short_args[] = "eopCF";

/* ehrecord's long options, and whether each takes the next word. */
static const struct {
	const char *name;
	bool arg;
} cmdline_longs[] = {
	{ "event", true },	/* (index 0) */
	{ "filter", true }, { "buffer-size", true },
	{ "spool-size", true }, { "duration", true }, { "pid", true },
	{ "cpu", true }, { "output", true }, { "format", true },
	{ "clock", true }, { "spool-disk", true }, { "max-size", true },
	{ "switch-output", true }, { "max-files", true },
	{ "debug-dir", true }, { "stacks", false }, { "cpu-sampling", false },
	{ "off-cpu", false }, { "children", false }, { "list", false },
	{ "check", false }, { "register", false }, { "persist", false },
	{ "wait", false }, { "unregister", false }, { "call-graph", false },
	{ "circular", false }, { "no-demangle", false }, { "quiet", false },
	{ "help", false }, { "version", false },
};

/*
 * The index in cmdline_longs of the long option the @n bytes at @w name,
 * as getopt_long() finds it (the whole name, or a prefix of one name
 * only), or -1.
 */
static int cmdline_long(const char *w, size_t n)
{
	int i, found = -1, hits = 0;

	for (i = 0; i < (int)(sizeof(cmdline_longs) / sizeof(*cmdline_longs));
	     i++) {
		if (is_word(w, n, cmdline_longs[i].name))
			return i;
		if (!strncmp(cmdline_longs[i].name, w, n)) {
			found = i;
			hits++;
		}
	}
	return hits == 1 ? found : -1;
}

/* What the next word of a command line is to getopt_long(). */
enum cmdline_next { CMDLINE_OPTION, CMDLINE_SPEC, CMDLINE_ARG };

/*
 * The long option at @w ("--NAME" or "--NAME=VALUE", to @end): true when
 * it is --event=sched:sched_switch; *@next set when the next word is its
 * argument.
 */
static bool long_asks_switch(const char *w, const char *end,
			     enum cmdline_next *next)
{
	const char *eq = memchr(w, '=', (size_t)(end - w));
	int opt = cmdline_long(w + 2, (size_t)((eq ? eq : end) - w) - 2);

	if (opt < 0 || !cmdline_longs[opt].arg)
		return false;
	if (!eq) {
		*next = opt == 0 ? CMDLINE_SPEC : CMDLINE_ARG;
		return false;
	}
	return opt == 0 && names_switch(eq + 1, (size_t)(end - eq) - 1);
}

/*
 * The short options at @w ("-q", "-qe", "-qeSPEC", to @end): flags, then
 * at most one that takes the rest of the word or the next word. As
 * long_asks_switch().
 */
static bool short_asks_switch(const char *w, const char *end,
			      enum cmdline_next *next)
{
	const char *c = w + 1;

	while (c < end && !strchr(cmdline_short_args, *c))
		c++;
	if (c == end)
		return false;
	if (c + 1 == end) {
		*next = *c == 'e' ? CMDLINE_SPEC : CMDLINE_ARG;
		return false;
	}
	return *c == 'e' && names_switch(c + 1, (size_t)(end - c) - 1);
}

/*
 * Read as getopt_long() reads ehrecord's arguments: its short options
 * alone or clustered (-qe SPEC, -qeSPEC), its long ones whole or by a
 * unique prefix (--ev=SPEC), an option's argument never read as an
 * option, nothing after "--" (COMMAND's words).
 */
bool ehd__cmdline_asks_switch(const char *cmdline)
{
	enum cmdline_next next = CMDLINE_OPTION;
	const char *w = cmdline, *end, *base;
	size_t n;

	if (!w)
		return false;
	end = strchrnul(w, ' ');
	for (base = end; base > w && base[-1] != '/'; base--)
		;
	n = (size_t)(end - base);
	if (!is_word(base, n, "ehrecord") && !is_word(base, n, "lt-ehrecord"))
		return false;
	while (*end) {
		w = end + 1;
		end = strchrnul(w, ' ');
		n = (size_t)(end - w);
		if (next != CMDLINE_OPTION) {
			if (next == CMDLINE_SPEC && names_switch(w, n))
				return true;
			next = CMDLINE_OPTION;
		} else if (is_word(w, n, "--")) {
			return false;	/* the command's words follow */
		} else if (n > 2 && w[0] == '-' && w[1] == '-') {
			if (long_asks_switch(w, end, &next))
				return true;
		} else if (n >= 2 && w[0] == '-' &&
			   short_asks_switch(w, end, &next)) {
			return true;
		}
	}
	return false;
}

size_t ehd__session_ring_bytes(const struct ehd_session *s)
{
	return s->nrings * s->size;
}

bool ehd__session_asks_switch(const struct ehd_session *s)
{
	size_t i;

	for (i = 0; i < s->nspecs; i++)
		if (s->specs[i].kind == SPEC_TRACEPOINT &&
		    is_sched_switch(s->specs[i].system, s->specs[i].event))
			return true;
	return false;
}

/*
 * Before the start: what the options imply. --off-cpu is sched_switch
 * with the stack of the thread that leaves the CPU; stacks need the
 * mappings to be of use.
 */
static void plan_system(struct ehd_session *s)
{
	size_t i;

	s->maps = s->hz || s->off_cpu || (s->flags & EHD_SESSION_CALLCHAIN);
	for (i = 0; i < s->nspecs; i++) {
		if (s->off_cpu && s->specs[i].kind == SPEC_TRACEPOINT &&
		    is_sched_switch(s->specs[i].system, s->specs[i].event))
			s->specs[i].callchain = true;
		if (s->specs[i].callchain)
			s->maps = true;
	}
}

static int add_off_cpu(struct ehd_session *s)
{
	struct spec sp = { .kind = SPEC_TRACEPOINT, .system = (char *)"sched",
			   .event = (char *)"sched_switch", .callchain = true };

	return add_exact(s, &sp);
}

/* CPU sampling: cpu-clock events, enabled with the rings. */
static int open_clock(struct ehd_session *s)
{
	struct perf_event_attr a;

	clock_attr(s, &a);
	return set_open(s, &s->clock, &a, "cpu-clock (CPU sampling)", NULL);
}

/* Aimed: the side-band events of the aim's threads. */
static int open_side(struct ehd_session *s)
{
	struct perf_event_attr a;

	side_attr(s, &a);
	return set_open(s, &s->side, &a, "dummy (processes)", NULL);
}

/*
 * The stream's first records: machine, events, formats (in s->meta for a
 * normal-mode file, at its end), then the threads and mappings there are.
 */
static int describe_session(struct ehd_session *s)
{
	struct ehd_buf *d = s->normal ? &s->meta : &s->out;
	struct ehd__ps_machine m = { 0 };
	struct ehd__ps_sample_id sid;
	struct perf_event_attr a;
	uint64_t *ids;
	uint64_t w0, c, w1;
	size_t i;
	int err;

	if (!s->normal)
		ehd__ps_pipe_header(&s->out);
	w0 = ehd__now_ns(CLOCK_REALTIME);
	c = ehd__now_ns(s->clockid);
	w1 = ehd__now_ns(CLOCK_REALTIME);
	m.cmdline = (const char *const *)s->cmdline;
	m.clockid = s->clockid;
	m.clock_ns = c;
	m.wall_ns = w0 + (w1 - w0) / 2;
	m.version = "libehdecode " PACKAGE_VERSION;
	ehd__ps_features(d, &m);

	ids = calloc(s->nrings, sizeof(*ids));
	if (!ids)
		return fail(s, -ENOMEM, "out of memory");
	for (i = 0; i < s->nrings; i++)
		ids[i] = s->rings[i].id;
	ring_attr(s, &a);
	ehd__ps_attr(d, &a, ids, s->nrings);
	free(ids);
	ehd__ps_event_name(d, s->rings[0].id, "dummy:u");
	if (s->side.n) {
		side_attr(s, &a);
		ehd__ps_attr(d, &a, s->side.ids, s->side.n);
		ehd__ps_event_name(d, s->side.ids[0], "dummy:u");
	}
	if (s->clock.n) {
		clock_attr(s, &a);
		ehd__ps_attr(d, &a, s->clock.ids, s->clock.n);
		ehd__ps_event_name(d, s->clock.ids[0], "cpu-clock");
	}
	for (i = 0; i < s->ntps; i++)
		describe_tp(s, s->tps[i], d);
	err = describe_formats(s, d);
	if (err)
		return err;
	sid.sample_type = SAMPLE_TYPE;
	sid.id = s->rings[0].id;
	sid.time = ehd__now_ns(s->clockid);
	if (s->npids) {
		/* Only the aim's processes: nothing of the others. */
		err = read_aim(s);
		if (err)
			return err;
		ehd__ps_threads(&s->out, &sid, s->maps, s->aim.procs,
				s->aim.nprocs);
	} else {
		ehd__ps_threads(&s->out, &sid, s->maps, NULL, 0);
	}
	ehd__ps_finished_round(&s->out);
	return 0;
}

/*
 * The output's bound less what the stop adds after the rings' data: a
 * LOST_SAMPLES record per event and a round end, and for a normal-mode
 * file what ehd__perf_normal_finish() writes from the descriptions (their
 * features, the last tracing data, names, attrs and ids: at most twice
 * them, and the feature index). Again when tracepoints are added.
 */
static int update_limit(struct ehd_session *s)
{
	uint64_t reserve, nfds = s->nrings + s->clock.n + s->side.n;
	size_t i;

	if (!s->max_size)
		return 0;
	for (i = 0; i < s->ntps; i++)
		nfds += s->tps[i]->set.n;
	reserve = 48 * nfds + 8;
	if (s->normal)
		reserve += 2 * (uint64_t)s->meta.len + 16384;
	if (s->state == NEW &&
	    s->max_size <= reserve + s->sink.bytes + s->out.len)
		return fail(s, -EFBIG,
			    "a size limit of %llu bytes cannot hold the recording's description (%llu bytes)",
			    (unsigned long long)s->max_size,
			    (unsigned long long)(reserve + s->sink.bytes +
						 s->out.len));
	/* (Running, a bound already passed is hit at the next pass.) */
	__atomic_store_n(&s->sink.limit, s->max_size > reserve ?
			 s->max_size - reserve : 1, __ATOMIC_RELEASE);
	return 0;
}

/* The records made in s->out, into the stream. */
static int put_out(struct ehd_session *s)
{
	if (s->out.err)
		return fail(s, -ENOMEM, "out of memory");
	if (ehd__sink_put(&s->sink, s->out.p, s->out.len))
		return sink_fail(s);
	s->out.len = 0;
	return 0;
}

/*
 * Where the stream goes: the spool (at least a pass over full rings in
 * memory; a circular session's snapshots are read by the thread that
 * takes them, so it has no bound), or the file, which gets the records
 * made so far. A normal-mode file starts with room for its header.
 */
static int open_sink(struct ehd_session *s)
{
	static const uint8_t zero[PERF_HEADER_SIZE];
	size_t mem = s->spool_mem, wake = s->nrings * s->size;
	int err;

	s->sink.fd = s->out_fd;
	if (s->out_fd < 0) {
		if (mem < wake)
			mem = wake;
		if (wake > mem / 4)
			wake = mem / 4;
		err = ehd__spool_new(&s->spool, mem, s->spool_disk,
				     s->spool_dir);
		if (err)
			return fail(s, err, "cannot make the spool: %s",
				    strerror(-err));
		if (s->flags & EHD_SESSION_CIRCULAR) {
			ehd__spool_unbound(s->spool);
		} else {
			/* (short of memory: chunks made as they are needed) */
			ehd__spool_reserve(s->spool, ehd__spool_reserve_for(
					   s->nrings * s->size));
			/*
			 * With no latency bound, the consumer is woken for
			 * what all the rings hold (a quarter of the spool at
			 * most), not for every pass: fewer, longer runs of
			 * converting.
			 */
			if (s->latency_ms < 0)
				ehd__spool_set_wake(s->spool, wake);
		}
		s->sink.spool = s->spool;
	}
	if (s->normal && ehd__sink_put(&s->sink, zero, sizeof(zero)))
		return sink_fail(s);
	if (s->out_fd >= 0) {
		err = update_limit(s);
		if (err)
			return err;
	}
	err = put_out(s);
	/* A normal-mode file can be cut back to here (no room). */
	s->sink.cuttable = s->normal;
	s->sink.nends = 0;
	if (!err)
		ehd__sink_mark(&s->sink, s->sink.bytes);
	return err;
}

/*
 * The drain thread of @s. Into a file, it counts the samples it writes:
 * those of s->clock are CPU samples, not a tracepoint's.
 */
static int start_drain(struct ehd_session *s)
{
	struct ehd__drain_cfg dc = {
		.rings = s->drain_rings, .nrings = s->nrings,
		.size = s->size, .sink = &s->sink,
		.timeout_ms = s->latency_ms,
		.skip_ids = s->clock.ids, .nskip = s->clock.n,
	};
	int err = ehd__drain_start(&s->drain, &dc);

	if (err)
		return fail(s, err, "cannot start the drain thread: %s",
			    strerror(-err));
	return 0;
}

/* A circular session's count of what its snapshots write (snapshot()). */
static int start_snapshots(struct ehd_session *s)
{
	s->snap.skip = ehd__sorted_ids(s->clock.ids, s->clock.n);
	s->snap.nskip = s->clock.n;
	return s->snap.skip ? 0 : fail(s, -ENOMEM, "out of memory");
}

EHD_API int ehd_session_start(struct ehd_session *s)
{
	size_t i;
	int err;

	if (s->state != NEW)
		return fail(s, -EBUSY, "the session has started already");
	if (!s->nspecs && !s->hz && !s->off_cpu)
		return fail(s, -EINVAL, "no tracepoints to collect");
	plan_system(s);
	err = check_tracefs(s);
	if (err)
		return err;
	err = open_rings(s);
	if (!err && s->npids)
		err = open_side(s);
	for (i = 0; i < s->nspecs && !err; i++)
		if (s->specs[i].kind == SPEC_TRACEPOINT)
			err = add_exact(s, &s->specs[i]);
	if (!err && s->off_cpu)
		err = add_off_cpu(s);
	if (!err && s->has_provider)
		err = scan_providers(s);
	if (!err && s->hz)
		err = open_clock(s);
	if (!err)
		err = describe_session(s);
	if (!err && (s->out.err || s->meta.err))
		err = fail(s, -ENOMEM, "out of memory");
	if (!err)
		err = open_sink(s);
	for (i = 0; i < s->nrings && !err; i++)
		if (ioctl(s->rings[i].fd, PERF_EVENT_IOC_ENABLE, 0))
			err = fail(s, -errno, "cannot enable: %s",
				   strerror(errno));
	for (i = 0; i < s->clock.n && !err; i++)
		if (ioctl(s->clock.fds[i], PERF_EVENT_IOC_ENABLE, 0))
			err = fail(s, -errno, "cannot enable: %s",
				   strerror(errno));
	if (!err && !(s->flags & EHD_SESSION_CIRCULAR))
		err = start_drain(s);
	else if (!err)
		err = start_snapshots(s);
	s->state = STARTED;	/* so that free() stops what was enabled */
	s->aim_read = false;	/* a tracepoint found later reads it again */
	if (err) {
		ehd_session_stop(s);
		return err;
	}
	return 0;
}

/* The sink's failure, said. */
static int sink_fail(struct ehd_session *s)
{
	int err = s->sink.err ? s->sink.err : -EIO;

	if (s->out_fd >= 0)
		return fail(s, err, "writing the output: %s", strerror(-err));
	return fail(s, err, "spool: %s", strerror(-err));
}

/* ---- circular sessions: snapshots ------------------------------------------ */

/* Copy @n bytes at ring position @pos (any u64; wraps) to @dst. */
static void ring_copy(const struct ehd_session *s, const struct ring *rg,
		      uint64_t pos, void *dst, size_t n)
{
	size_t at = (size_t)(pos & (s->size - 1));
	size_t first = s->size - at < n ? s->size - at : n;

	memcpy(dst, rg->data + at, first);
	memcpy((uint8_t *)dst + first, rg->data, n - first);
}

/*
 * Backward (circular) ring: the records from head up to the previous
 * snapshot's head, or as many whole ones as the ring holds, newest first;
 * appended to s->out oldest first.
 */
static void snapshot_ring(struct ehd_session *s, size_t ring)
{
	struct ring *rg = &s->rings[ring];
	struct perf_event_mmap_page *meta = rg->base;
	uint64_t head, pos, end, *offs = NULL;
	size_t n = 0, cap = 0;

	ioctl(rg->fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 1);
	head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
	end = rg->prev;
	for (pos = head; pos != end;) {
		struct perf_event_header h;

		ring_copy(s, rg, pos, &h, sizeof(h));
		if (h.size < sizeof(h) || pos - head + h.size > s->size)
			break;	/* unwritten space, or the oldest is cut */
		if (n == cap) {
			uint64_t *v;

			cap = cap ? 2 * cap : 256;
			v = realloc(offs, cap * sizeof(*v));
			if (!v) {
				s->out.err = -ENOMEM;
				break;
			}
			offs = v;
		}
		offs[n++] = pos;
		pos += h.size;
	}
	while (n--) {
		struct perf_event_header h;

		ring_copy(s, rg, offs[n], &h, sizeof(h));
		if (!ehd__buf_reserve(&s->out, h.size)) {
			ring_copy(s, rg, offs[n], s->out.p + s->out.len,
				  h.size);
			s->out.len += h.size;
		}
	}
	free(offs);
	rg->prev = head;
	ioctl(rg->fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 0);
}

/*
 * Every ring's newest records, and a round end, into the stream: into a
 * file as the drain thread's passes go, within its bound (--max-size, or
 * where it was cut back for want of room), a record that finds no room
 * cutting it back to the last whole one.
 */
static int snapshot(struct ehd_session *s)
{
	size_t i;
	int err;

	for (i = 0; i < s->nrings; i++)
		snapshot_ring(s, i);
	ehd__ps_finished_round(&s->out);
	if (s->out_fd < 0 || s->out.err)
		return put_out(s);	/* (its reader counts what it reads) */
	err = ehd__sink_write_bounded(&s->sink, s->out.p, s->out.len,
				      &s->snap);
	s->out.len = 0;
	return err ? sink_fail(s) : 0;
}

EHD_API int ehd_session_snapshot(struct ehd_session *s)
{
	if (!(s->flags & EHD_SESSION_CIRCULAR))
		return fail(s, -EINVAL, "not a circular session");
	if (s->state != STARTED)
		return fail(s, -EINVAL, "the session is not running");
	return snapshot(s);
}

/* ---- the caller's side ------------------------------------------------------ */

/* Look for new tracepoints of provider specs when it is time. */
static int rescan(struct ehd_session *s)
{
	if (s->state == STARTED && s->has_provider &&
	    ehd__now_ns(CLOCK_MONOTONIC) - s->last_scan >= RESCAN_NS)
		return scan_providers(s);
	return 0;
}

EHD_API int ehd_session_poll(struct ehd_session *s, int timeout_ms)
{
	struct pollfd p;
	int n, wait, err;

	if (s->state == NEW)
		return fail(s, -EINVAL, "the session is not running");
	if (s->sink.err)
		return sink_fail(s);
	if (__atomic_load_n(&s->sink.no_room, __ATOMIC_ACQUIRE))
		return fail(s, -EFBIG, "no room for the output (%s)",
			    strerror(s->sink.no_room));
	if (__atomic_load_n(&s->sink.limit_hit, __ATOMIC_ACQUIRE))
		return fail(s, -EFBIG,
			    "the output reached its size limit (%llu bytes)",
			    (unsigned long long)s->max_size);
	err = rescan(s);
	if (err)
		return err;
	if (s->spool && ehd__spool_pending(s->spool))
		return 1;
	if (s->state == STOPPED)
		return s->spool && !s->ended ? 1 :
		       fail(s, -EINVAL, "the session is not running");
	wait = timeout_ms;
	if (s->has_provider && (wait < 0 || wait > (int)(RESCAN_NS / 1000000)))
		wait = (int)(RESCAN_NS / 1000000);
	if (s->spool) {
		p.fd = ehd__spool_fd(s->spool);
		p.events = POLLIN;
		n = poll(&p, 1, wait);
	} else {
		n = poll(NULL, 0, wait);	/* a file: the thread writes */
	}
	if (n < 0)
		return errno == EINTR ? -EINTR : fail(s, -errno, "poll: %s",
						       strerror(errno));
	if (s->sink.err)
		return sink_fail(s);
	return n > 0 && s->spool;
}

/* What a read or view of the spool that gave no bytes says. */
static int spool_result(struct ehd_session *s, int err)
{
	if (!err)
		s->ended = true;
	if (err == -EAGAIN && s->sink.err)
		return sink_fail(s);
	if (err < 0 && err != -EAGAIN && err != -ENODATA)
		return fail(s, err, "spool: %s", strerror(-err));
	return err;
}

EHD_API ssize_t ehd_session_read(struct ehd_session *s, void *buf, size_t size)
{
	ssize_t n;
	int err;

	if (s->state == NEW)
		return fail(s, -EINVAL, "the session has not started");
	if (!s->spool)
		return fail(s, -EINVAL, "the session writes to a file");
	/* A reader kept busy may not poll: look for tracepoints here. */
	err = rescan(s);
	if (err)
		return err;
	n = ehd__spool_read(s->spool, buf, size);
	return n > 0 ? n : spool_result(s, (int)n);
}

int ehd__session_view(struct ehd_session *s, const void **p, size_t *n)
{
	int err;

	if (s->state == NEW || !s->spool)
		return fail(s, -EINVAL, "the session gives no stream");
	err = rescan(s);
	if (err)
		return err;
	err = ehd__spool_view(s->spool, p, n);
	return err > 0 ? err : spool_result(s, err);
}

void ehd__session_release(struct ehd_session *s, uint64_t pos)
{
	if (s->spool)
		ehd__spool_release(s->spool, pos);
}

bool ehd__session_starved(struct ehd_session *s)
{
	return s->spool && ehd__spool_starved(s->spool);
}

/* ---- the end ------------------------------------------------------------------- */

/*
 * put_lost_samples() - a LOST_SAMPLES record for event @id on @ring saying
 * it lost @n records in the whole session. Layout: header, lost, then
 * sample_id (pid/tid, time, cpu, identifier).
 */
static void put_lost_samples(struct ehd_session *s, const struct ring *ring,
			     uint64_t id, uint64_t n)
{
	uint64_t rec[6];

	rec[0] = PERF_RECORD_LOST_SAMPLES | (uint64_t)sizeof(rec) << 48;
	rec[1] = n;
	rec[2] = 0;
	rec[3] = ehd__now_ns(s->clockid);
	rec[4] = (uint64_t)ring->cpu;
	rec[5] = id;
	ehd__buf_put(&s->out, rec, sizeof(rec));
}

/* The count and lost count of event @fd (read_format ID | LOST). */
static bool read_counts(int fd, uint64_t *count, uint64_t *lost)
{
	uint64_t v[3];

	if (fd < 0 || read(fd, v, sizeof(v)) != (ssize_t)sizeof(v))
		return false;
	*count = v[0];
	*lost = v[2];
	return true;
}

/*
 * The counts of each event of @e: its lost samples added to the lost
 * count of its ring when they are @events (side-band records of dummy
 * events are not), with @records a LOST_SAMPLES record for each that
 * lost any since the file began (the end of a file); the samples the
 * kernel wrote (its count less the lost), returned.
 */
static uint64_t count_set(struct ehd_session *s, const struct evset *e,
			  bool events, bool records)
{
	uint64_t c, n, samples = 0;
	size_t i;

	for (i = 0; i < e->n; i++) {
		if (!read_counts(e->fds[i], &c, &n))
			continue;
		if (records && n > e->lost_base[i])
			put_lost_samples(s, &s->rings[e->ring[i]], e->ids[i],
					 n - e->lost_base[i]);
		if (records)
			e->lost_base[i] = n;
		if (events)
			s->lost[e->ring[i]] += n;
		samples += c > n ? c - n : 0;
	}
	return samples;
}

/*
 * Each event's counts: the samples lost by ring into s->lost (from
 * PERF_FORMAT_LOST), and the samples the kernel wrote of tracepoints,
 * returned; with @records, a LOST_SAMPLES record for each event that
 * lost any.
 */
static uint64_t count_events(struct ehd_session *s, bool records)
{
	uint64_t c, n, samples = 0;
	size_t i;

	if (!s->format_lost)
		return 0;
	for (i = 0; i < s->nrings; i++)
		s->lost[i] = 0;
	for (i = 0; i < s->nrings; i++) {
		struct ring *rg = &s->rings[i];

		if (!records || !read_counts(rg->fd, &c, &n))
			continue;
		if (n > rg->lost_base)
			put_lost_samples(s, rg, rg->id, n - rg->lost_base);
		rg->lost_base = n;
	}
	count_set(s, &s->side, false, records);
	count_set(s, &s->clock, true, records);
	for (i = 0; i < s->ntps; i++)
		samples += count_set(s, &s->tps[i]->set, true, records);
	return samples;
}

/* A normal-mode file: features, attrs and ids after the data, the header. */
static int finish_file(struct ehd_session *s)
{
	char why[300] = "";
	off_t end = lseek(s->out_fd, 0, SEEK_CUR);
	int err;

	if (end < 0)
		return fail(s, -errno, "output: %s", strerror(errno));
	if (s->meta.err)
		return fail(s, -ENOMEM, "out of memory");
	err = ehd__perf_normal_finish(s->out_fd, s->meta.p, s->meta.len,
				      (uint64_t)end - PERF_HEADER_SIZE, why,
				      sizeof(why));
	return err ? fail(s, err, "writing the output: %s", why) : 0;
}

/*
 * The end of the stream (the stop, or a file given up for the next): as
 * perf record does, each event's lost count since the stream began in a
 * LOST_SAMPLES record, including what the kernel had not reported yet (it
 * reports a full ring's losses with its next record, and none may come).
 * Readers take these totals instead of the LOST records. A normal-mode
 * file is then completed. @err: a failure before; returned, or the first.
 */
static int end_stream(struct ehd_session *s, int err)
{
	int e = 0;

	s->out.len = 0;
	if (s->mapped) {
		count_events(s, true);
		ehd__ps_finished_round(&s->out);
	}
	if (!err && s->out.err)
		err = fail(s, -ENOMEM, "out of memory");
	/*
	 * A file that finds no room for its end is cut back a mark at a time
	 * (ehd__sink_cut()) until it does.
	 */
	while (!err) {
		e = s->sink.err;
		if (!e)
			e = ehd__sink_put(&s->sink, s->out.p, s->out.len);
		if (!e && !s->spool && s->normal)
			e = finish_file(s);
		if (!e || ehd__sink_cut(&s->sink, e))
			break;
	}
	s->out.len = 0;
	if (!err && e) {
		/* Not completed: no file to keep. */
		__atomic_store_n(&s->sink.no_room, 0, __ATOMIC_RELEASE);
		err = s->sink.err ? sink_fail(s) : e;	/* (else said) */
	}
	return err;
}

/*
 * settle_writers() - wait until every sample the kernel began before the
 * events were disabled is in its ring. A disable takes effect on each CPU
 * by an interrupt, which may come while that CPU is inside a tracepoint's
 * handler, past its check of the event: the handler counts the sample,
 * then writes it after the disable has returned, where a last pass taken
 * at once would miss it. (That follows from how the disable reaches the
 * CPU; it was not caught happening. The one-event gaps between the
 * kernel's count and a file that were caught were already there when the
 * disable returned: see kernel_samples in session.h.) Those handlers run
 * in RCU read-side sections (preemption off), and a global membarrier
 * waits for a grace period: once it returns, they have all ended. Where
 * the kernel refuses it (nohz_full, a seccomp filter), a pause far longer
 * than a handler, whole even if a signal comes.
 */
static void settle_writers(void)
{
	struct timespec pause = { 0, 20 * 1000 * 1000 };

	if (!syscall(SYS_membarrier, MEMBARRIER_CMD_GLOBAL, 0, 0))
		return;
	while (nanosleep(&pause, &pause) && errno == EINTR)
		;
}

EHD_API int ehd_session_stop(struct ehd_session *s)
{
	size_t i, k;
	int err = 0;

	if (s->state != STARTED)
		return 0;
	/* Nothing more comes: the last pass takes what is there, once. */
	for (k = 0; k < s->ntps; k++)
		set_ioctl(&s->tps[k]->set, PERF_EVENT_IOC_DISABLE);
	set_ioctl(&s->clock, PERF_EVENT_IOC_DISABLE);
	set_ioctl(&s->side, PERF_EVENT_IOC_DISABLE);
	for (i = 0; i < s->nrings; i++)
		if (s->rings[i].base)
			ioctl(s->rings[i].fd, PERF_EVENT_IOC_DISABLE, 0);
	settle_writers();
	s->state = STOPPED;
	if (s->drain) {
		ehd__drain_stop(s->drain);
	} else if (s->mapped && (s->spool || s->out_fd >= 0) &&
		   (s->flags & EHD_SESSION_CIRCULAR)) {
		err = snapshot(s);
	}
	if (!s->spool && s->out_fd < 0)
		return err;	/* it failed before it had a sink */
	err = end_stream(s, err);
	if (s->spool)
		ehd__spool_close(s->spool, err);
	return err;
}

EHD_API int ehd_session_switch_output(struct ehd_session *s, int fd)
{
	struct stat st;
	int err;

	if (s->state != STARTED || !s->drain || s->out_fd < 0)
		return fail(s, -EINVAL,
			    "only a running session writing to a file switches files");
	if (fstat(fd, &st))
		return fail(s, -errno, "output: %s", strerror(errno));
	/* No pass runs meanwhile; the rings keep what comes. */
	ehd__drain_pause(s->drain);
	err = end_stream(s, 0);
	if (!err) {
		s->out_fd = s->sink.fd = fd;
		s->sink.bytes = 0;
		__atomic_store_n(&s->sink.limit_hit, 0, __ATOMIC_RELEASE);
		s->normal = S_ISREG(st.st_mode) && lseek(fd, 0, SEEK_CUR) == 0;
		s->meta.len = 0;
		s->out.len = 0;
		err = describe_session(s);
		if (!err)
			err = open_sink(s);
	}
	ehd__drain_resume(s->drain);
	ehd__drain_wake(s->drain);	/* what waited goes to this file */
	return err;
}

EHD_API void ehd_session_stats(const struct ehd_session *s,
			       struct ehd_session_stats *st)
{
	struct ehd_session *w = (struct ehd_session *)s;	/* counts kept */
	struct ehd__spool_stats sp;
	struct ehd__drain_stats ds;
	size_t i;

	memset(st, 0, sizeof(*st));
	if (s->state != NEW)
		st->kernel_samples = count_events(w, false);
	st->samples = st->kernel_samples;
	for (i = 0; i < s->nrings; i++)
		st->lost += s->lost[i];
	st->bytes = s->sink.bytes;
	st->nr_cpus = (uint32_t)s->nrings;
	st->tracepoints = (uint32_t)s->ntps;
	st->registered = (uint32_t)s->nenable;
	st->lost_per_cpu = s->lost;
	st->cpus = s->cpus;
	if (s->spool) {
		ehd__spool_stats(s->spool, &sp);
		st->spool_pending = sp.in - sp.out;
		st->spool_peak = sp.mem_peak;
		st->spool_disk_peak = sp.disk_peak;
	}
	if (s->drain) {
		ehd__drain_stats(s->drain, &ds);
		st->full_passes = ds.full;
		if (!s->spool) {
			st->samples = ds.samples;
			st->cpu_samples = ds.skipped;
		}
	}
	st->circular = !!(s->flags & EHD_SESSION_CIRCULAR);
	if (st->circular && s->out_fd >= 0) {
		st->samples = s->snap.n;
		st->cpu_samples = s->snap.skipped;
	}
	st->limit_dropped = __atomic_load_n(&s->sink.limit_dropped,
					    __ATOMIC_RELAXED);
	st->no_room = __atomic_load_n(&s->sink.no_room, __ATOMIC_ACQUIRE);
}

EHD_API int ehd_session_tracepoint(const struct ehd_session *s, size_t i,
				   const char **name, uint64_t *samples,
				   uint64_t *lost)
{
	const struct tp *t;
	uint64_t c, n;
	size_t k;

	if (i >= s->ntps)
		return -ENOENT;
	t = s->tps[i];
	*name = t->name;
	*samples = *lost = 0;
	for (k = 0; k < t->set.n; k++)
		if (read_counts(t->set.fds[k], &c, &n)) {
			*samples += c > n ? c - n : 0;
			*lost += n;
		}
	return 0;
}

EHD_API const char *ehd_session_error(const struct ehd_session *s)
{
	return s->err[0] ? s->err : NULL;
}
