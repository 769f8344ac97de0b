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
#include <sys/syscall.h>
#include <linux/perf_event.h>

#include <tracefs.h>

#include <eventheader/eh-uapi.h>
#include <eventheader/eventheader.h>

#include <ehdecode/session.h>

#include "ehd-buf.h"
#include "perf-stream.h"
#include "session-int.h"

#define RESCAN_NS (100 * 1000000ull)	/* how often to look for tracepoints */
#define BUFFER_MAX (1024u * 1024u * 1024u)
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

/* A tracepoint being collected: one perf event per ring. */
struct tp {
	char *system;
	char *event;
	uint64_t config;	/* its tracefs id */
	bool eventheader;	/* user_events with an EventHeader name */
	bool callchain;		/* its samples carry call chains */
	int *fds;
	uint64_t *ids;
};

/* The ring of one CPU; its own event is the dummy that gives COMM etc. */
struct ring {
	int cpu;
	int fd;
	void *base;		/* the mapping: control page, then data */
	uint8_t *data;
	uint64_t id;		/* the dummy event's sample id */
	uint64_t prev;		/* circular: data_head at the last snapshot */
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
	int *clock_fds;		/* cpu-clock events by ring */
	uint64_t *clock_ids;
	struct ring *rings;
	size_t nrings;
	uint64_t *lost;		/* by ring */
	uint32_t *cpus;		/* by ring */
	size_t size;		/* ring data bytes, a power of two pages */
	size_t page;
	char *filter;
	char **cmdline;
	int clockid;
	bool format_lost;	/* PERF_FORMAT_LOST works */
	bool mapped;		/* every ring is open and mapped */

	int reg_fd;		/* user_events_data, for pre-registration */
	uint32_t **enable;	/* one enable word per registration */
	size_t nenable;

	struct ehd_buf out;	/* the stream not given out yet */
	size_t out_pos;
	uint64_t bytes;
	uint64_t samples;
	int empty_rounds;
	uint64_t last_scan;
	struct pollfd *pfds;

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

static uint64_t now_ns(int clockid)
{
	struct timespec ts;

	clock_gettime(clockid, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* ---- names and specs ----------------------------------------------------- */

static bool all_hex(const char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!isxdigit((unsigned char)p[i]))
			return false;
	return n > 0;
}

/* "L<hex>K<hex>" with an optional "G<alnum>", and nothing after. */
static bool eh_suffix(const char *p)
{
	size_t n;

	if (*p++ != 'L')
		return false;
	n = strspn(p, "0123456789abcdefABCDEF");
	if (!all_hex(p, n) || p[n] != 'K')
		return false;
	p += n + 1;
	n = strspn(p, "0123456789abcdefABCDEF");
	if (!n)
		return false;
	p += n;
	if (!*p)
		return true;
	if (*p++ != 'G' || !*p)
		return false;
	for (; *p; p++)
		if (!isalnum((unsigned char)*p))
			return false;
	return true;
}

bool ehd__session_eh_name(const char *name, size_t *provider_len)
{
	const char *p = name + strlen(name);

	/* The provider may hold "_L" itself: try every one from the end. */
	while (p > name) {
		p--;
		if (p - 1 > name && p[-1] == '_' && eh_suffix(p)) {
			if (provider_len)
				*provider_len = (size_t)(p - 1 - name);
			return true;
		}
	}
	return false;
}

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
	} else if (ehd__session_eh_name(spec, NULL)) {
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
	s->page = (size_t)sysconf(_SC_PAGESIZE);
	s->size = EHD_SESSION_BUFFER_DEFAULT;
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

static void free_tp(struct tp *t, size_t nrings)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; t->fds && i < nrings; i++)
		if (t->fds[i] >= 0)
			close(t->fds[i]);
	free(t->fds);
	free(t->ids);
	free(t->system);
	free(t->event);
	free(t);
}

EHD_API void ehd_session_free(struct ehd_session *s)
{
	size_t i;

	if (!s)
		return;
	if (s->state == STARTED)
		ehd_session_stop(s);
	for (i = 0; i < s->ntps; i++)
		free_tp(s->tps[i], s->nrings);
	free(s->tps);
	for (i = 0; s->clock_fds && i < s->nrings; i++)
		if (s->clock_fds[i] >= 0)
			close(s->clock_fds[i]);
	free(s->clock_fds);
	free(s->clock_ids);
	for (i = 0; i < s->nrings; i++) {
		if (s->rings[i].base)
			munmap(s->rings[i].base, s->page + s->size);
		if (s->rings[i].fd >= 0)
			close(s->rings[i].fd);
	}
	free(s->rings);
	free(s->lost);
	free(s->cpus);
	free(s->pfds);
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

static int perf_open(struct perf_event_attr *a, int cpu)
{
	return (int)syscall(SYS_perf_event_open, a, -1, cpu, -1,
			    PERF_FLAG_FD_CLOEXEC);
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
	a->wakeup_watermark = (uint32_t)(s->size / 4);
	a->write_backward = !!(s->flags & EHD_SESSION_CIRCULAR);
}

static void dummy_attr(const struct ehd_session *s, struct perf_event_attr *a)
{
	base_attr(s, a);
	a->type = PERF_TYPE_SOFTWARE;
	a->config = PERF_COUNT_SW_DUMMY;
	a->comm = 1;
	a->comm_exec = 1;
	a->task = 1;
	if (s->maps) {
		/* executable mappings, with file names (MMAP2) */
		a->mmap = 1;
		a->mmap2 = 1;
	}
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
	 * is given its ring (and filter) right after it is opened.
	 */
	a->disabled = 0;
	a->sample_type |= PERF_SAMPLE_RAW;
	if ((s->flags & EHD_SESSION_CALLCHAIN) || t->callchain)
		a->sample_type |= PERF_SAMPLE_CALLCHAIN;
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
		    "perf_event_open %s: %s: tracepoints on every CPU need root or CAP_PERFMON, or kernel.perf_event_paranoid = -1 (it is %s)",
		    what, strerror(e), paranoid);
}

/* Open the rings: one dummy event per online CPU, mapped. */
static int open_rings(struct ehd_session *s)
{
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	struct perf_event_attr a;
	int cpu;

	if (ncpu < 1)
		ncpu = 1;
	s->rings = calloc((size_t)ncpu, sizeof(*s->rings));
	s->lost = calloc((size_t)ncpu, sizeof(*s->lost));
	s->cpus = calloc((size_t)ncpu, sizeof(*s->cpus));
	s->pfds = calloc((size_t)ncpu, sizeof(*s->pfds));
	if (!s->rings || !s->lost || !s->cpus || !s->pfds)
		return fail(s, -ENOMEM, "out of memory");
	s->format_lost = true;
	for (cpu = 0; cpu < ncpu; cpu++) {
		struct ring *rg = &s->rings[s->nrings];
		int prot = PROT_READ;
		int fd;

		dummy_attr(s, &a);
		fd = perf_open(&a, cpu);
		if (fd < 0 && errno == EINVAL && s->format_lost) {
			/* Before Linux 6.0: no PERF_FORMAT_LOST. */
			s->format_lost = false;
			dummy_attr(s, &a);
			fd = perf_open(&a, cpu);
		}
		if (fd < 0 && (errno == ENODEV || errno == ENOENT))
			continue;	/* offline */
		if (fd < 0)
			return perf_fail(s, errno, "(dummy event for the ring)");
		rg->cpu = cpu;
		rg->fd = fd;
		if (!(s->flags & EHD_SESSION_CIRCULAR))
			prot |= PROT_WRITE;
		rg->base = mmap(NULL, s->page + s->size, prot, MAP_SHARED, fd,
				0);
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
		s->pfds[s->nrings].fd = fd;
		s->pfds[s->nrings].events = POLLIN;
		s->nrings++;
	}
	if (!s->nrings)
		return fail(s, -ENODEV, "no CPU is online");
	s->mapped = true;
	return 0;
}

/* Open @t on every ring, its samples going to the CPU's ring. */
static int open_tp(struct ehd_session *s, struct tp *t)
{
	struct perf_event_attr a;
	size_t i;

	t->fds = malloc(s->nrings * sizeof(*t->fds));
	t->ids = calloc(s->nrings, sizeof(*t->ids));
	if (!t->fds || !t->ids)
		return fail(s, -ENOMEM, "out of memory");
	for (i = 0; i < s->nrings; i++)
		t->fds[i] = -1;
	tp_attr(s, t, &a);
	for (i = 0; i < s->nrings; i++) {
		int fd = perf_open(&a, s->rings[i].cpu);
		char what[300];

		if (fd < 0) {
			snprintf(what, sizeof(what), "%s:%s", t->system,
				 t->event);
			return perf_fail(s, errno, what);
		}
		t->fds[i] = fd;
		if (t->eventheader && s->filter &&
		    ioctl(fd, PERF_EVENT_IOC_SET_FILTER, s->filter))
			return fail(s, -EINVAL,
				    "the kernel refused the filter '%s' on %s:%s: %s (fields: eventheader_flags, version, id, tag, opcode, level)",
				    s->filter, t->system, t->event,
				    strerror(errno));
		if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, s->rings[i].fd) ||
		    ioctl(fd, PERF_EVENT_IOC_ID, &t->ids[i]))
			return fail(s, -errno, "%s:%s: cannot share the ring: %s",
				    t->system, t->event, strerror(errno));
	}
	return 0;
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
	size_t plen;
	int err;

	if (!t)
		return fail(s, -ENOMEM, "out of memory");
	t->system = strdup(system);
	t->event = strdup(event);
	t->config = config;
	t->callchain = callchain;
	t->eventheader = !strcmp(system, "user_events") &&
			 ehd__session_eh_name(event, &plen);
	v = realloc(s->tps, (s->ntps + 1) * sizeof(*v));
	if (!t->system || !t->event || !v) {
		if (v)
			s->tps = v;
		free_tp(t, 0);
		return fail(s, -ENOMEM, "out of memory");
	}
	s->tps = v;
	s->tps[s->ntps++] = t;
	err = open_tp(s, t);
	*tpp = t;
	return err;
}

/* Stream records describing @t: its attr and name. */
static void describe_tp(struct ehd_session *s, const struct tp *t)
{
	struct perf_event_attr a;
	char name[600];

	tp_attr(s, t, &a);
	ehd__ps_attr(&s->out, &a, t->ids, s->nrings);
	snprintf(name, sizeof(name), "%s:%s", t->system, t->event);
	ehd__ps_event_name(&s->out, t->ids[0], name);
}

/* A tracing data record with the formats of every tracepoint so far. */
static int describe_formats(struct ehd_session *s)
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
	err = ehd__ps_tracing_data(&s->out, v, s->ntps, why, sizeof(why));
	free(v);
	if (err)
		return fail(s, err, "%s", why);
	return 0;
}

/* The provider spec user_events:@event belongs to, or NULL. */
static const struct spec *provider_wants(const struct ehd_session *s,
					 const char *event)
{
	size_t plen, i;

	if (!ehd__session_eh_name(event, &plen))
		return NULL;
	for (i = 0; i < s->nspecs; i++)
		if (s->specs[i].kind == SPEC_PROVIDER &&
		    strlen(s->specs[i].event) == plen &&
		    !memcmp(s->specs[i].event, event, plen))
			return &s->specs[i];
	return NULL;
}

/*
 * Add the user_events tracepoints of provider specs not collected yet;
 * once started, they are described in the stream (before any of their
 * samples, which stay in the rings until the next pass).
 */
static int scan_providers(struct ehd_session *s)
{
	char **list = tracefs_system_events(NULL, "user_events");
	size_t first = s->ntps, i;
	int err = 0;

	s->last_scan = now_ns(CLOCK_MONOTONIC);
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
		if (!err)
			err = add_tp(s, "user_events", list[i], id,
				     sp->callchain, &t);
	}
	tracefs_list_free(list);
	if (err || s->state != STARTED || first == s->ntps)
		return err;
	for (i = first; i < s->ntps; i++)
		describe_tp(s, s->tps[i]);
	return describe_formats(s);
}

/* The tracepoints of exact specs, registered first where needed. */
static int add_exact(struct ehd_session *s, const struct spec *sp)
{
	const struct spec *prov = !strcmp(sp->system, "user_events") ?
				  provider_wants(s, sp->event) : NULL;
	uint64_t id;
	struct tp *t;
	size_t plen;
	int err;

	if (have_tp(s, sp->system, sp->event))
		return 0;
	err = tracepoint_id(s, sp->system, sp->event, &id);
	if (err == -ENOENT && !strcmp(sp->system, "user_events") &&
	    ehd__session_eh_name(sp->event, &plen)) {
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

/* CPU sampling: a cpu-clock event on every ring, enabled with the rings. */
static int open_clock(struct ehd_session *s)
{
	struct perf_event_attr a;
	size_t i;

	s->clock_fds = malloc(s->nrings * sizeof(*s->clock_fds));
	s->clock_ids = calloc(s->nrings, sizeof(*s->clock_ids));
	if (!s->clock_fds || !s->clock_ids)
		return fail(s, -ENOMEM, "out of memory");
	for (i = 0; i < s->nrings; i++)
		s->clock_fds[i] = -1;
	clock_attr(s, &a);
	for (i = 0; i < s->nrings; i++) {
		int fd = perf_open(&a, s->rings[i].cpu);

		if (fd < 0)
			return perf_fail(s, errno, "cpu-clock (CPU sampling)");
		s->clock_fds[i] = fd;
		if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, s->rings[i].fd) ||
		    ioctl(fd, PERF_EVENT_IOC_ID, &s->clock_ids[i]))
			return fail(s, -errno, "cpu-clock: cannot share the ring: %s",
				    strerror(errno));
	}
	return 0;
}

/* The stream's first records: machine, events, formats, threads. */
static int describe_session(struct ehd_session *s)
{
	struct ehd__ps_machine m = { 0 };
	struct ehd__ps_sample_id sid;
	struct perf_event_attr a;
	uint64_t *ids;
	uint64_t w0, c, w1;
	size_t i;
	int err;

	ehd__ps_pipe_header(&s->out);
	w0 = now_ns(CLOCK_REALTIME);
	c = now_ns(s->clockid);
	w1 = now_ns(CLOCK_REALTIME);
	m.cmdline = (const char *const *)s->cmdline;
	m.clockid = s->clockid;
	m.clock_ns = c;
	m.wall_ns = w0 + (w1 - w0) / 2;
	m.version = "libehdecode " PACKAGE_VERSION;
	ehd__ps_features(&s->out, &m);

	ids = calloc(s->nrings, sizeof(*ids));
	if (!ids)
		return fail(s, -ENOMEM, "out of memory");
	for (i = 0; i < s->nrings; i++)
		ids[i] = s->rings[i].id;
	dummy_attr(s, &a);
	ehd__ps_attr(&s->out, &a, ids, s->nrings);
	free(ids);
	ehd__ps_event_name(&s->out, s->rings[0].id, "dummy:u");
	if (s->clock_ids) {
		clock_attr(s, &a);
		ehd__ps_attr(&s->out, &a, s->clock_ids, s->nrings);
		ehd__ps_event_name(&s->out, s->clock_ids[0], "cpu-clock");
	}
	for (i = 0; i < s->ntps; i++)
		describe_tp(s, s->tps[i]);
	err = describe_formats(s);
	if (err)
		return err;
	sid.sample_type = SAMPLE_TYPE;
	sid.id = s->rings[0].id;
	sid.time = now_ns(s->clockid);
	ehd__ps_threads(&s->out, &sid, s->maps);
	ehd__ps_finished_round(&s->out);
	return 0;
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
	for (i = 0; i < s->nrings && !err; i++)
		if (ioctl(s->rings[i].fd, PERF_EVENT_IOC_ENABLE, 0) ||
		    (s->clock_fds &&
		     ioctl(s->clock_fds[i], PERF_EVENT_IOC_ENABLE, 0)))
			err = fail(s, -errno, "cannot enable: %s",
				   strerror(errno));
	if (!err && s->out.err)
		err = fail(s, -ENOMEM, "out of memory");
	s->bytes = s->out.len;
	s->state = STARTED;	/* so that free() stops what was enabled */
	if (err) {
		ehd_session_stop(s);
		return err;
	}
	return 0;
}

/* ---- reading the rings ----------------------------------------------------- */

/* Copy @n bytes at ring position @pos (any u64; wraps) to @dst. */
static void ring_copy(const struct ehd_session *s, const struct ring *rg,
		      uint64_t pos, void *dst, size_t n)
{
	size_t at = (size_t)(pos & (s->size - 1));
	size_t first = s->size - at < n ? s->size - at : n;

	memcpy(dst, rg->data + at, first);
	memcpy((uint8_t *)dst + first, rg->data, n - first);
}

/* Append the record at @pos of @size bytes; count samples and losses. */
static void take(struct ehd_session *s, size_t ring, uint64_t pos,
		 uint16_t size)
{
	struct perf_event_header *h;

	if (ehd__buf_reserve(&s->out, size))
		return;
	h = (struct perf_event_header *)(s->out.p + s->out.len);
	ring_copy(s, &s->rings[ring], pos, h, size);
	s->out.len += size;
	s->out.p[s->out.len] = 0;
	if (h->type == PERF_RECORD_SAMPLE)
		s->samples++;
	else if (h->type == PERF_RECORD_LOST && size >= 24)
		s->lost[ring] += ((const uint64_t *)h)[2];
	else if (h->type == PERF_RECORD_LOST_SAMPLES && size >= 16)
		s->lost[ring] += ((const uint64_t *)h)[1];
}

/* Forward ring: take everything between tail and head. */
static size_t drain_ring(struct ehd_session *s, size_t ring)
{
	struct perf_event_mmap_page *meta = s->rings[ring].base;
	uint64_t head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = meta->data_tail, start = s->out.len;

	while (tail < head) {
		struct perf_event_header h;

		ring_copy(s, &s->rings[ring], tail, &h, sizeof(h));
		if (h.size < sizeof(h) || h.size > head - tail)
			break;	/* cannot be: the kernel writes whole records */
		take(s, ring, tail, h.size);
		tail += h.size;
	}
	__atomic_store_n(&meta->data_tail, tail, __ATOMIC_RELEASE);
	return s->out.len - start;
}

/*
 * Backward (circular) ring: the records from head up to the previous
 * snapshot's head, or as many whole ones as the ring holds, newest first;
 * appended oldest first.
 */
static size_t snapshot_ring(struct ehd_session *s, size_t ring)
{
	struct ring *rg = &s->rings[ring];
	struct perf_event_mmap_page *meta = rg->base;
	uint64_t head, pos, end, *offs = NULL;
	size_t n = 0, cap = 0, start = s->out.len;

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
		take(s, ring, offs[n], h.size);
	}
	free(offs);
	rg->prev = head;
	ioctl(rg->fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 0);
	return s->out.len - start;
}

/* One pass over the rings, ended by a round record. */
static void read_rings(struct ehd_session *s)
{
	size_t got = 0, i;

	for (i = 0; i < s->nrings; i++)
		got += s->flags & EHD_SESSION_CIRCULAR ? snapshot_ring(s, i) :
							  drain_ring(s, i);
	/*
	 * Rounds let a reader sort: what was written before the previous
	 * round's end is complete. Two empty rounds after data let it give
	 * out the last of them; more would be noise.
	 */
	if (got)
		s->empty_rounds = 0;
	else if (s->empty_rounds >= 2)
		return;
	else
		s->empty_rounds++;
	ehd__ps_finished_round(&s->out);
}

EHD_API int ehd_session_poll(struct ehd_session *s, int timeout_ms)
{
	size_t i;
	int n, wait;

	if (s->state != STARTED)
		return s->state == STOPPED && s->out_pos < s->out.len ? 1 :
		       fail(s, -EINVAL, "the session is not running");
	if (s->has_provider &&
	    now_ns(CLOCK_MONOTONIC) - s->last_scan >= RESCAN_NS) {
		int err = scan_providers(s);

		if (err)
			return err;
	}
	if (s->out_pos < s->out.len)
		return 1;
	/*
	 * Rings are read when a quarter full (the kernel's wakeup) or when
	 * the wait ends, not whenever they hold a record: fewer, larger
	 * passes. One empty pass after data asks for a second at once, which
	 * lets a reader give out the last events it holds.
	 */
	if (!(s->flags & EHD_SESSION_CIRCULAR) && s->empty_rounds == 1)
		return 1;
	wait = timeout_ms;
	if (s->has_provider && (wait < 0 || wait > (int)(RESCAN_NS / 1000000)))
		wait = (int)(RESCAN_NS / 1000000);
	if (s->flags & EHD_SESSION_CIRCULAR) {
		n = poll(NULL, 0, wait);
	} else {
		for (i = 0; i < s->nrings; i++)
			s->pfds[i].revents = 0;
		n = poll(s->pfds, s->nrings, wait);
	}
	if (n < 0)
		return errno == EINTR ? -EINTR : fail(s, -errno, "poll: %s",
						       strerror(errno));
	return n > 0 && !(s->flags & EHD_SESSION_CIRCULAR);
}

EHD_API ssize_t ehd_session_read(struct ehd_session *s, void *buf, size_t size)
{
	size_t n;

	if (s->state == NEW)
		return fail(s, -EINVAL, "the session has not started");
	if (s->out_pos == s->out.len) {
		s->out.len = s->out_pos = 0;
		if (s->state == STOPPED)
			return 0;
		/* A reader kept busy may not poll: look for tracepoints here. */
		if (s->has_provider &&
		    now_ns(CLOCK_MONOTONIC) - s->last_scan >= RESCAN_NS) {
			int err = scan_providers(s);

			if (err)
				return err;
		}
		if (!(s->flags & EHD_SESSION_CIRCULAR))
			read_rings(s);
		if (s->out.err)
			return fail(s, -ENOMEM, "out of memory");
		s->bytes += s->out.len;
		if (!s->out.len)
			return -EAGAIN;
	}
	n = s->out.len - s->out_pos;
	if (n > size)
		n = size;
	memcpy(buf, s->out.p + s->out_pos, n);
	s->out_pos += n;
	return (ssize_t)n;
}

/* Append to the stream outside ehd_session_read(): keep what is unread. */
static void stream_compact(struct ehd_session *s)
{
	if (s->out_pos) {
		memmove(s->out.p, s->out.p + s->out_pos,
			s->out.len - s->out_pos);
		s->out.len -= s->out_pos;
		s->out_pos = 0;
	}
}

EHD_API int ehd_session_snapshot(struct ehd_session *s)
{
	size_t before;

	if (!(s->flags & EHD_SESSION_CIRCULAR))
		return fail(s, -EINVAL, "not a circular session");
	if (s->state != STARTED)
		return fail(s, -EINVAL, "the session is not running");
	stream_compact(s);
	before = s->out.len;
	read_rings(s);
	s->bytes += s->out.len - before;
	return s->out.err ? fail(s, -ENOMEM, "out of memory") : 0;
}

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
	rec[3] = now_ns(s->clockid);
	rec[4] = (uint64_t)ring->cpu;
	rec[5] = id;
	ehd__buf_put(&s->out, rec, sizeof(rec));
}

/* The lost count of event @fd (read_format ID | LOST), 0 if unknown. */
static uint64_t read_lost(int fd)
{
	uint64_t v[3];

	if (fd < 0 || read(fd, v, sizeof(v)) != (ssize_t)sizeof(v))
		return 0;
	return v[2];
}

/*
 * At the stop, as perf record does: each event's whole lost count
 * (PERF_FORMAT_LOST) in a LOST_SAMPLES record, including what the kernel
 * had not reported yet (it reports a full ring's losses with its next
 * record, and there is none after the stop). Readers take these totals
 * instead of the LOST records. The dummy event's count is of side-band
 * records (COMM, FORK, EXIT): written, but not counted as events here.
 */
static void write_lost_samples(struct ehd_session *s)
{
	size_t i, k;

	if (!s->format_lost)
		return;
	for (i = 0; i < s->nrings; i++) {
		uint64_t n, events = 0;

		n = read_lost(s->rings[i].fd);
		if (n)
			put_lost_samples(s, &s->rings[i], s->rings[i].id, n);
		if (s->clock_fds) {
			n = read_lost(s->clock_fds[i]);
			if (n)
				put_lost_samples(s, &s->rings[i],
						 s->clock_ids[i], n);
			events += n;
		}
		for (k = 0; k < s->ntps; k++) {
			if (!s->tps[k]->fds)
				continue;
			n = read_lost(s->tps[k]->fds[i]);
			if (n)
				put_lost_samples(s, &s->rings[i],
						 s->tps[k]->ids[i], n);
			events += n;
		}
		s->lost[i] = events;
	}
}

EHD_API int ehd_session_stop(struct ehd_session *s)
{
	size_t before, i, k;

	if (s->state != STARTED)
		return 0;
	for (k = 0; k < s->ntps; k++)
		for (i = 0; s->tps[k]->fds && i < s->nrings; i++)
			if (s->tps[k]->fds[i] >= 0)
				ioctl(s->tps[k]->fds[i], PERF_EVENT_IOC_DISABLE,
				      0);
	for (i = 0; s->clock_fds && i < s->nrings; i++)
		if (s->clock_fds[i] >= 0)
			ioctl(s->clock_fds[i], PERF_EVENT_IOC_DISABLE, 0);
	for (i = 0; i < s->nrings; i++)
		if (s->rings[i].base)
			ioctl(s->rings[i].fd, PERF_EVENT_IOC_DISABLE, 0);
	stream_compact(s);
	before = s->out.len;
	if (s->mapped) {
		s->empty_rounds = 0;
		read_rings(s);
		write_lost_samples(s);
		ehd__ps_finished_round(&s->out);
	}
	s->bytes += s->out.len - before;
	s->state = STOPPED;
	return s->out.err ? fail(s, -ENOMEM, "out of memory") : 0;
}

EHD_API void ehd_session_stats(const struct ehd_session *s,
			       struct ehd_session_stats *st)
{
	size_t i;

	memset(st, 0, sizeof(*st));
	st->samples = s->samples;
	for (i = 0; i < s->nrings; i++)
		st->lost += s->lost[i];
	st->bytes = s->bytes;
	st->nr_cpus = (uint32_t)s->nrings;
	st->tracepoints = (uint32_t)s->ntps;
	st->registered = (uint32_t)s->nenable;
	st->lost_per_cpu = s->lost;
	st->cpus = s->cpus;
}

EHD_API const char *ehd_session_error(const struct ehd_session *s)
{
	return s->err[0] ? s->err : NULL;
}
