/* SPDX-License-Identifier: MIT */
/*
 * eh-tracepoint.h - user_events registration and writing, header-only
 *
 * The runtime under the EventHeader macros (eh-provider.h) and the dynamic
 * API (eh-dynamic.h). Most programs use those and never call this directly.
 *
 * A struct eh_tracepoint is one registration of a user_events tracepoint.
 * The kernel sets bit 0 of its @status word while any consumer (perf,
 * ftrace, a recorder) has the tracepoint enabled, so checking whether to
 * write is one relaxed load. Registration opens the tracefs file
 * user_events_data once per module and shares it between providers.
 *
 * Errors are positive errno values, as in LinuxTracepoints:
 *	eh_provider_register()  0, or why user_events cannot be used (ENOENT:
 *				no tracefs or no CONFIG_USER_EVENTS; EACCES:
 *				no permission). The program runs on; every write
 *				is then a no-op returning EBADF.
 *	eh_tracepoint_write()   0; EBADF when disabled or not registered;
 *				E2BIG for an event over EH_EVENT_MAX bytes;
 *				else the errno of writev().
 * Nothing here allocates on the write path or takes a lock there.
 *
 * Event size: EH_EVENT_MAX (64 KiB) is the format's limit, and writes
 * over it are refused. The kernel's consumers have smaller ones and drop
 * larger events silently (writev() still succeeds): measured on Linux
 * 6.12, ftrace keeps events up to 4064 bytes and perf up to 8184 bytes
 * (header and metadata included). Keep events well under 4 KiB.
 *
 * Backends, chosen at compile time for the whole program:
 *	default		  the kernel's user_events (Linux 6.4 or later)
 *	EH_INTERCEPTOR	  defined before the first include: no kernel at all;
 *			  every tracepoint is enabled and every event is
 *			  appended to a file as {uint32_t little-endian record
 *			  size including itself, NUL-terminated tracepoint
 *			  name, event bytes}. The file is $EH_INTERCEPTOR_FILE,
 *			  else EventHeaderInterceptor<LE|BE><64|32>.dat in the
 *			  current directory. For tests.
 *
 * Shared state is defined weak and hidden, so every translation unit may
 * include this header and a module (program or shared library) gets one
 * copy. A shared library that registers providers must unregister them
 * before it is unloaded: the kernel writes into registered memory.
 */
#ifndef EVENTHEADER_EH_TRACEPOINT_H
#define EVENTHEADER_EH_TRACEPOINT_H

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/uio.h>
#include <unistd.h>

#include <eventheader/eventheader.h>
#include <eventheader/eh-uapi.h>

#ifdef __cplusplus
extern "C" {
#endif

#define EH__SHARED __attribute__((weak, visibility("hidden")))
#define EH__UNUSED __attribute__((unused))
#define EH__COLD __attribute__((cold))

/* Strict ISO modes (-std=c11) hide O_CLOEXEC; glibc always has this one. */
#ifdef O_CLOEXEC
#define EH__O_CLOEXEC O_CLOEXEC
#else
#define EH__O_CLOEXEC __O_CLOEXEC
#endif

/* Events up to this size are gathered into one buffer before writev(): the
 * kernel's per-segment cost is then paid once. Larger ones go as is. */
#ifndef EH_GATHER_MAX
#define EH_GATHER_MAX 512
#endif

/**
 * struct eh_provider - a named source of events
 * @name: provider name, e.g. "MyCompany_MyComponent"
 * @options: tracepoint name options, "" or "G<group>"
 * @registered: nonzero between eh_provider_register() and
 *	eh_provider_unregister()
 *
 * Defined by EH_DEFINE_PROVIDER() (eh-provider.h) or filled in by the
 * dynamic API. Not to be changed while registered.
 */
struct eh_provider {
	const char *name;
	const char *options;
	int registered;
};

/**
 * struct eh_tracepoint - one registration of a tracepoint
 * @status: nonzero while a consumer has the tracepoint enabled; written by
 *	the kernel (bit 0)
 * @write_index: the kernel's index for this tracepoint, -1 if unregistered
 * @level: event level (the L part of the tracepoint name)
 * @keyword: event keyword (the K part)
 * @provider: the provider it was registered for, or NULL
 *
 * Initialise with EH_TRACEPOINT_INIT(level, keyword). The address of
 * @status is given to the kernel: the object must stay where it is while
 * registered (static storage is the usual place).
 */
struct eh_tracepoint {
	uint32_t status;
	int32_t write_index;
	uint8_t level;
	uint64_t keyword;
	const struct eh_provider *provider;
};

#define EH_TRACEPOINT_INIT(level, keyword) { 0, -1, (level), (keyword), 0 }

/**
 * eh_tracepoint_enabled() - does any consumer want this tracepoint now?
 * @tp: the tracepoint
 *
 * One relaxed load: the answer may change right after it is read.
 *
 * Return: nonzero if enabled.
 */
static inline int eh_tracepoint_enabled(const struct eh_tracepoint *tp)
{
	return __atomic_load_n(&tp->status, __ATOMIC_RELAXED) != 0;
}

/* Units of @unit bytes (1, 2 or 4) before the first zero unit; @s need
 * not be aligned. */
static inline size_t eh__zstr_units(const void *s, size_t unit)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n, i;

	if (unit == 1)
		return strlen((const char *)s);
	for (n = 0;; n++, p += unit) {
		for (i = 0; i < unit && !p[i]; i++)
			;
		if (i == unit)
			return n;
	}
}

/* Bytes of a NUL-terminated string, terminator included. A NULL string
 * is sent as an empty one (*p then points at a zero unit). */
static inline size_t eh__zstr_bytes(const void **p, size_t unit)
{
	static const uint32_t empty = 0;

	if (!*p) {
		*p = &empty;
		return unit;
	}
	return (eh__zstr_units(*p, unit) + 1) * unit;
}

/* Count of a counted string or variable array as sent: at most 65535. */
static inline uint16_t eh__count16(size_t n)
{
	return n > 65535 ? (uint16_t)65535 : (uint16_t)n;
}

/* Module-wide state, shared by every translation unit (weak, hidden). */
struct eh__state {
	pthread_mutex_t lock;
	pthread_once_t atfork_once;
	int fd;			/* user_events_data (or interceptor file) */
	unsigned int users;	/* registered providers */
	uint32_t names_count;	/* interceptor: tracepoint names by index */
	uint32_t names_cap;
	char **names;
};

EH__SHARED struct eh__state eh__state = { PTHREAD_MUTEX_INITIALIZER,
					  PTHREAD_ONCE_INIT, -1, 0, 0, 0, 0 };

static inline void eh__lock(void)
{
	pthread_mutex_lock(&eh__state.lock);
}

static inline void eh__unlock(void)
{
	pthread_mutex_unlock(&eh__state.lock);
}

static inline void eh__atfork_init(void)
{
	/* A fork while another thread registers must not leave the child
	 * with the lock held forever. */
	pthread_atfork(eh__lock, eh__unlock, eh__unlock);
}

/* Take the registration lock (sets up the fork handlers once). */
static inline void eh__lock_registry(void)
{
	pthread_once(&eh__state.atfork_once, eh__atfork_init);
	eh__lock();
}

#ifndef EH_INTERCEPTOR

/*
 * Copy one space-separated field of a /proc/mounts line, undoing its octal
 * escapes (\040 for a space). Returns the position after the field.
 */
static inline const char *eh__mount_field(const char *s, char *out, size_t size)
{
	size_t n = 0;

	while (*s == ' ')
		s++;
	for (; *s && *s != ' ' && *s != '\n'; s++) {
		char c = *s;

		if (c == '\\' && s[1] >= '0' && s[1] <= '7' && s[2] && s[3]) {
			c = (char)(((s[1] - '0') << 6) | ((s[2] - '0') << 3) |
				   (s[3] - '0'));
			s += 3;
		}
		if (n + 1 < size)
			out[n++] = c;
	}
	out[n] = 0;
	return s;
}

/*
 * Open user_events_data: /sys/kernel/tracing first (containers need not
 * fake /proc/mounts), then the first tracefs mount, then debugfs/tracing.
 * Returns an fd or a negative errno.
 */
static inline EH__COLD int eh__user_events_open(void)
{
	char line[4096], dir[4096], type[64];
	char path[4096 + sizeof("/tracing/user_events_data")];
	int fd, err, found = 0;
	const char *s;
	FILE *f;

	fd = open("/sys/kernel/tracing/user_events_data",
		  O_WRONLY | EH__O_CLOEXEC);
	if (fd >= 0)
		return fd;
	err = errno;
	f = fopen("/proc/mounts", "r");
	if (!f)
		return -err;
	while (found < 2 && fgets(line, sizeof(line), f)) {
		s = eh__mount_field(line, dir, sizeof(dir));	/* device */
		s = eh__mount_field(s, dir, sizeof(dir));
		eh__mount_field(s, type, sizeof(type));
		if (strcmp(type, "tracefs") == 0) {
			snprintf(path, sizeof(path), "%s/user_events_data", dir);
			found = 2;
		} else if (!found && strcmp(type, "debugfs") == 0) {
			snprintf(path, sizeof(path),
				 "%s/tracing/user_events_data", dir);
			found = 1;
		}
	}
	fclose(f);
	if (!found)
		return -err;
	fd = open(path, O_WRONLY | EH__O_CLOEXEC);
	return fd >= 0 ? fd : -errno;
}

static inline int eh__backend_open(void)
{
	return eh__user_events_open();
}

/* The kernel keeps an event while a file that registered it is open. */
static inline void eh__backend_close(int fd)
{
	(void)fd;
}

static inline int eh__backend_register(struct eh_tracepoint *tp,
				       const char *command, uint16_t flags)
{
	struct eh__user_reg reg;

	memset(&reg, 0, sizeof(reg));
	reg.size = sizeof(reg);
	reg.enable_bit = 0;
	reg.enable_size = sizeof(tp->status);
	reg.flags = flags;
	reg.enable_addr = (uint64_t)(uintptr_t)&tp->status;
	reg.name_args = (uint64_t)(uintptr_t)command;
	if (ioctl(eh__state.fd, EH__DIAG_IOCSREG, &reg) < 0)
		return errno;
	tp->write_index = (int32_t)reg.write_index;
	return 0;
}

static inline void eh__backend_unregister(struct eh_tracepoint *tp)
{
	struct eh__user_unreg unreg;

	memset(&unreg, 0, sizeof(unreg));
	unreg.size = sizeof(unreg);
	unreg.disable_bit = 0;
	unreg.disable_addr = (uint64_t)(uintptr_t)&tp->status;
	ioctl(eh__state.fd, EH__DIAG_IOCSUNREG, &unreg);
}

/*
 * Not inlined, and writev() not a tail call: with frame pointers, the user
 * stack of an event (perf's call chain, -e SPEC/stacks) is then writev(),
 * the function that wrote the event, and its callers. libc's writev() has
 * no frame of its own, so the frame it skips is this one; called from
 * inline code, it would skip the writer's.
 */
static __attribute__((noinline, unused)) int
eh__backend_write(const struct eh_tracepoint *tp, struct iovec *iov, int n,
		  size_t size)
{
	int fd = __atomic_load_n(&eh__state.fd, __ATOMIC_RELAXED);
	ssize_t r;

	(void)tp;
	(void)size;
	if (fd < 0)
		return EBADF;
	r = writev(fd, iov, n);
	__asm__ __volatile__("" : : "r"(r) : "memory");	/* no tail call */
	return r < 0 ? errno : 0;
}

#else /* EH_INTERCEPTOR */

static inline EH__COLD int eh__backend_open(void)
{
	const char *path = getenv("EH_INTERCEPTOR_FILE");
	char def[64];
	int fd;

	if (!path || !*path) {
		snprintf(def, sizeof(def), "EventHeaderInterceptor%s%d.dat",
			 EH_FLAG_DEFAULT & EH_FLAG_LITTLE_ENDIAN ? "LE" : "BE",
			 (int)sizeof(void *) * 8);
		path = def;
	}
	fd = open(path, O_WRONLY | O_CREAT | O_APPEND | EH__O_CLOEXEC, 0644);
	return fd >= 0 ? fd : -errno;
}

static inline void eh__backend_close(int fd)
{
	uint32_t i;

	close(fd);
	for (i = 0; i < eh__state.names_count; i++)
		free(eh__state.names[i]);
	free(eh__state.names);
	eh__state.names = 0;
	eh__state.names_count = eh__state.names_cap = 0;
}

static inline int eh__backend_register(struct eh_tracepoint *tp,
				       const char *command, uint16_t flags)
{
	size_t len = strcspn(command, " ");
	char **names;
	char *name;

	(void)flags;
	if (len >= EH_NAME_MAX)
		return EINVAL;
	if (eh__state.names_count >= 65535)
		return ENOMEM;
	if (eh__state.names_count == eh__state.names_cap) {
		uint32_t cap = eh__state.names_cap ? eh__state.names_cap * 2 : 16;

		names = (char **)realloc(eh__state.names, cap * sizeof(*names));
		if (!names)
			return ENOMEM;
		eh__state.names = names;
		eh__state.names_cap = cap;
	}
	name = (char *)malloc(len + 1);
	if (!name)
		return ENOMEM;
	memcpy(name, command, len);
	name[len] = 0;
	tp->write_index = (int32_t)eh__state.names_count;
	eh__state.names[eh__state.names_count++] = name;
	/* Events are always enabled here. */
	__atomic_store_n(&tp->status, 1, __ATOMIC_RELAXED);
	return 0;
}

static inline void eh__backend_unregister(struct eh_tracepoint *tp)
{
	(void)tp;
}

/* One record per event: {u32 LE size, name, NUL, event bytes}. */
static inline int eh__backend_write(const struct eh_tracepoint *tp,
				    struct iovec *iov, int n, size_t size)
{
	unsigned char rec[4 + EH_NAME_MAX + EH_EVENT_MAX + 4];
	size_t off, len;
	uint32_t total;
	int i;

	if (tp->write_index < 0 || eh__state.fd < 0)
		return EBADF;
	len = strlen(eh__state.names[tp->write_index]) + 1;
	total = (uint32_t)(4 + len + size - 4);
	rec[0] = (unsigned char)total;
	rec[1] = (unsigned char)(total >> 8);
	rec[2] = (unsigned char)(total >> 16);
	rec[3] = (unsigned char)(total >> 24);
	memcpy(rec + 4, eh__state.names[tp->write_index], len);
	off = 4 + len;
	/* iov[0] starts with the 4-byte write index: not part of the event. */
	for (i = 0; i < n; i++) {
		const unsigned char *p = (const unsigned char *)iov[i].iov_base;
		size_t l = iov[i].iov_len;

		if (i == 0) {
			p += 4;
			l -= 4;
		}
		if (l)
			memcpy(rec + off, p, l);
		off += l;
	}
	return write(eh__state.fd, rec, off) < 0 ? errno : 0;
}

#endif /* EH_INTERCEPTOR */

/* dup2() keeping close-on-exec (dup3() would need _GNU_SOURCE). */
static inline int eh__dup_to(int from, int to)
{
	if (dup2(from, to) < 0)
		return -1;
	fcntl(to, F_SETFD, FD_CLOEXEC);
	return 0;
}

/*
 * Take a reference on the module's data file, opening it on first use.
 * Called with the lock held. Returns 0 or a positive errno.
 */
static inline EH__COLD int eh__data_get(void)
{
	int fd;

	if (eh__state.users++ > 0)
		return 0;
	fd = eh__backend_open();
	if (fd < 0) {
		eh__state.users--;
		return -fd;
	}
	if (eh__state.fd >= 0) {
		/* Reuse the reserved number: a racing write never hits a
		 * file the program opened in the meantime. */
		if (eh__dup_to(fd, eh__state.fd) == 0) {
			close(fd);
			return 0;
		}
	}
	__atomic_store_n(&eh__state.fd, fd, __ATOMIC_RELAXED);
	return 0;
}

/*
 * Drop a reference. On the last one, the user_events file is released (so
 * the kernel can delete the events) but its descriptor number is kept,
 * pointing at /dev/null: a write racing with unregistration goes nowhere.
 */
static inline EH__COLD void eh__data_put(void)
{
	int fd;

	if (--eh__state.users > 0)
		return;
	eh__backend_close(eh__state.fd);
#ifndef EH_INTERCEPTOR
	fd = open("/dev/null", O_WRONLY | EH__O_CLOEXEC);
	if (fd >= 0) {
		if (eh__dup_to(fd, eh__state.fd) < 0)
			close(eh__state.fd);
		close(fd);
		return;
	}
	/* No /dev/null: keep the file (the events live on until exit). */
#else
	(void)fd;
	__atomic_store_n(&eh__state.fd, -1, __ATOMIC_RELAXED);
#endif
}

/* Register @tp under @p's name, lock held. */
static inline EH__COLD int eh__tracepoint_register(struct eh_tracepoint *tp,
						   const struct eh_provider *p)
{
	char cmd[EH_COMMAND_MAX];
	int n;

	if (tp->provider)
		return tp->provider == p ? 0 : EBUSY;
	n = eh_format_tracepoint_name(cmd, EH_NAME_MAX, p->name, tp->level,
				      tp->keyword, p->options);
	if (n < 0 || n >= EH_NAME_MAX)
		return E2BIG;
	memcpy(cmd + n, " " EH_COMMAND_TYPES, sizeof(" " EH_COMMAND_TYPES));
	n = eh__backend_register(tp, cmd, 0);
	if (n == 0)
		tp->provider = p;
	return n;
}

static inline EH__COLD void eh__tracepoint_unregister(struct eh_tracepoint *tp)
{
	if (!tp->provider)
		return;
	eh__backend_unregister(tp);
	__atomic_store_n(&tp->status, 0, __ATOMIC_RELAXED);
	tp->write_index = -1;
	tp->provider = 0;
}

/**
 * eh_provider_register() - register a provider and its tracepoints
 * @p: the provider
 * @start: first entry of an array of tracepoint pointers (NULLs skipped)
 * @stop: one past the last entry
 *
 * Opens user_events_data if this is the module's first registered provider,
 * then registers each tracepoint. A tracepoint that fails to register
 * (e.g. EADDRINUSE: the name is registered with other fields) stays
 * disabled; the others work. Thread-safe.
 *
 * Return: 0 if the provider is registered (call eh_provider_unregister()
 * later), EALREADY if it already was, EINVAL for a bad name or options or
 * when name and options are too long together, else
 * the errno of opening user_events_data (the provider stays unregistered
 * and its writes do nothing).
 */
static inline EH__COLD int eh_provider_register(struct eh_provider *p,
						struct eh_tracepoint *const *start,
						struct eh_tracepoint *const *stop)
{
	int err;

	if (!eh_provider_name_valid(p->name) || !eh_options_valid(p->options) ||
	    !eh_tracepoint_name_fits(p->name, p->options))
		return EINVAL;
	eh__lock_registry();
	if (p->registered) {
		err = EALREADY;
	} else {
		err = eh__data_get();
		if (!err) {
			p->registered = 1;
			for (; start && start < stop; start++)
				if (*start)
					eh__tracepoint_register(*start, p);
		}
	}
	eh__unlock();
	return err;
}

/**
 * eh_provider_unregister() - unregister a provider and its tracepoints
 * @p: the provider
 * @start: same array as given to eh_provider_register()
 * @stop: one past its last entry
 *
 * Safe to call when not registered. Writes through these tracepoints are
 * no-ops afterwards. Must be called before a shared library that
 * registered @p is unloaded.
 */
static inline EH__COLD void eh_provider_unregister(struct eh_provider *p,
						   struct eh_tracepoint *const *start,
						   struct eh_tracepoint *const *stop)
{
	eh__lock_registry();
	if (p->registered) {
		for (; start && start < stop; start++)
			if (*start && (*start)->provider == p)
				eh__tracepoint_unregister(*start);
		p->registered = 0;
		eh__data_put();
	}
	eh__unlock();
}

/**
 * eh_tracepoint_register() - register one more tracepoint of a provider
 * @tp: the tracepoint (EH_TRACEPOINT_INIT)
 * @p: a registered provider
 *
 * For tracepoints created at run time (eh-dynamic.h). Thread-safe.
 *
 * Return: 0, EBADF if @p is not registered, EBUSY if @tp belongs to
 * another provider, E2BIG if the name is too long, or the kernel's errno.
 */
static inline EH__COLD int eh_tracepoint_register(struct eh_tracepoint *tp,
						  const struct eh_provider *p)
{
	int err = EBADF;

	eh__lock_registry();
	if (p->registered)
		err = eh__tracepoint_register(tp, p);
	eh__unlock();
	return err;
}

/**
 * eh_tracepoint_unregister() - undo eh_tracepoint_register()
 * @tp: the tracepoint; nothing happens if it is not registered
 */
static inline EH__COLD void eh_tracepoint_unregister(struct eh_tracepoint *tp)
{
	eh__lock_registry();
	eh__tracepoint_unregister(tp);
	eh__unlock();
}

/**
 * eh_tracepoint_register_raw() - register a plain (non-EventHeader) tracepoint
 * @tp: the tracepoint (EH_TRACEPOINT_INIT(0, 0))
 * @command: the user_events definition, "Name field; field..." as in the
 *	kernel's user_events documentation, e.g. "MyEvent u32 count; char[8] tag",
 *	or "MyEvent" for an event without fields
 *
 * For tracepoints that tools read through their tracefs format rather
 * than as EventHeader. Takes a reference on the module's user_events file,
 * as a provider does; release it with eh_tracepoint_unregister_raw().
 *
 * Return: 0, or a positive errno (EINVAL for a bad definition,
 * EADDRINUSE if the name is registered with other fields).
 */
static inline EH__COLD int eh_tracepoint_register_raw(struct eh_tracepoint *tp,
						      const char *command)
{
	static const struct eh_provider raw = { "", "", 1 };
	int err;

	eh__lock_registry();
	err = tp->provider ? EBUSY : eh__data_get();
	if (!err) {
		err = eh__backend_register(tp, command, 0);
		if (err)
			eh__data_put();
		else
			tp->provider = &raw;
	}
	eh__unlock();
	return err;
}

/**
 * eh_tracepoint_unregister_raw() - undo eh_tracepoint_register_raw()
 * @tp: the tracepoint; nothing happens if it is not registered
 */
static inline EH__COLD void eh_tracepoint_unregister_raw(struct eh_tracepoint *tp)
{
	eh__lock_registry();
	if (tp->provider) {
		eh__tracepoint_unregister(tp);
		eh__data_put();
	}
	eh__unlock();
}

/**
 * eh_tracepoint_write_raw() - write the fields of a plain tracepoint
 * @tp: a tracepoint registered with eh_tracepoint_register_raw()
 * @iov: @n entries; iov[0] is scratch for this function, iov[1..] hold the
 *	field values in the order and layout of the definition
 * @n: number of entries, at least 1
 *
 * An event with no data at all gets one 0 byte, as LinuxTracepoints does:
 * some kernels did not record empty user_events writes correctly (6.12
 * records both).
 *
 * Return: 0, EBADF if disabled, or writev()'s errno.
 */
static inline int eh_tracepoint_write_raw(const struct eh_tracepoint *tp,
					  struct iovec *iov, unsigned int n)
{
	unsigned char pre[5];
	size_t size = 0;
	unsigned int i;

	if (!eh_tracepoint_enabled(tp) || tp->write_index < 0)
		return EBADF;
	memcpy(pre, &tp->write_index, 4);
	pre[4] = 0;
	for (i = 1; i < n; i++)
		size += iov[i].iov_len;
	iov[0].iov_base = pre;
	iov[0].iov_len = size ? 4 : 5;
	return eh__backend_write(tp, iov, (int)n, iov[0].iov_len + size);
}

#if (defined(__GNUC__) && __GNUC__ >= 8) || defined(__clang__)
#define EH__UNROLL _Pragma("GCC unroll 16")
#else
#define EH__UNROLL
#endif
#define EH__ALWAYS_INLINE inline __attribute__((always_inline))

/*
 * Copy one segment into the gather buffer without a call to memcpy() for
 * the usual short fields: a constant size (after unrolling, most are)
 * becomes plain moves; a short string takes two overlapping moves.
 */
static EH__ALWAYS_INLINE void eh__gather_copy(unsigned char *d,
					     const unsigned char *s, size_t n)
{
	if (__builtin_constant_p(n)) {
		memcpy(d, s, n);
		return;
	}
	/* n is a run-time length (a string's): keep gcc's -Warray-bounds
	 * from checking its possible range against the object s points to. */
	__asm__("" : "+r"(s));
	if (n > 16) {
		memcpy(d, s, n);
	} else if (n >= 8) {
		/* Two overlapping moves cover every length from 8 to 16. */
		uint64_t a, b;

		memcpy(&a, s, 8);
		memcpy(&b, s + n - 8, 8);
		memcpy(d, &a, 8);
		memcpy(d + n - 8, &b, 8);
	} else if (n >= 4) {
		uint32_t a, b;

		memcpy(&a, s, 4);
		memcpy(&b, s + n - 4, 4);
		memcpy(d, &a, 4);
		memcpy(d + n - 4, &b, 4);
	} else if (n) {
		d[0] = s[0];
		d[n / 2] = s[n / 2];
		d[n - 1] = s[n - 1];
	}
}

/*
 * The body of eh_tracepoint_write(), inlined into each EH_WRITE() call site
 * (which has already seen the tracepoint enabled): there the segment
 * sizes are mostly constants, and the loops unroll into plain moves.
 */
static EH__ALWAYS_INLINE int eh__tracepoint_write(const struct eh_tracepoint *tp,
						  const struct eh_header *header,
						  const void *activity_id,
						  const void *related_id,
						  struct iovec *iov,
						  unsigned int n)
{
	unsigned char pre[4 + sizeof(struct eh_header) +
			  sizeof(struct eh_extension) + 2 * EH_ACTIVITY_ID_SIZE];
	unsigned char gather[EH_GATHER_MAX];
	struct eh_header h = *header;
	struct iovec one;
	size_t size, off;
	unsigned int i;

	if (tp->write_index < 0)
		return EBADF;

	h.flags |= EH_FLAG_EXTENSION;
	memcpy(pre, &tp->write_index, 4);
	memcpy(pre + 4, &h, sizeof(h));
	off = 4 + sizeof(h);
	if (activity_id) {
		struct eh_extension ext;

		ext.size = related_id ? 2 * EH_ACTIVITY_ID_SIZE
				      : EH_ACTIVITY_ID_SIZE;
		ext.kind = EH_EXT_ACTIVITY_ID | EH_EXT_CHAIN_FLAG;
		memcpy(pre + off, &ext, sizeof(ext));
		off += sizeof(ext);
		memcpy(pre + off, activity_id, EH_ACTIVITY_ID_SIZE);
		off += EH_ACTIVITY_ID_SIZE;
		if (related_id) {
			memcpy(pre + off, related_id, EH_ACTIVITY_ID_SIZE);
			off += EH_ACTIVITY_ID_SIZE;
		}
	}
	iov[0].iov_base = pre;
	iov[0].iov_len = off;

	size = 0;
	EH__UNROLL
	for (i = 0; i < n; i++)
		size += iov[i].iov_len;
	if (size - 4 > EH_EVENT_MAX)
		return E2BIG;
	if (size > sizeof(gather))
		return eh__backend_write(tp, iov, (int)n, size);

	off = 0;
	EH__UNROLL
	for (i = 0; i < n; i++) {
		eh__gather_copy(gather + off,
				(const unsigned char *)iov[i].iov_base,
				iov[i].iov_len);
		off += iov[i].iov_len;
	}
	one.iov_base = gather;
	one.iov_len = size;
	return eh__backend_write(tp, &one, 1, size);
}

/**
 * eh_tracepoint_write() - write one EventHeader event
 * @tp: a registered tracepoint
 * @header: the event's header; its extension flag is added as needed
 * @activity_id: 16-byte activity id, or NULL
 * @related_id: 16-byte related (parent) activity id, or NULL; used only
 *	with @activity_id
 * @iov: @n entries: iov[0] is scratch for this function, iov[1] is the
 *	metadata extension (struct eh_extension and its bytes), iov[2..] the
 *	payload
 * @n: number of entries, at least 2
 *
 * Events up to EH_GATHER_MAX bytes are copied into one stack buffer and
 * written as one segment; larger ones are written as the segments given.
 *
 * Return: 0, EBADF if the tracepoint is disabled or unregistered, E2BIG if
 * the event would be larger than EH_EVENT_MAX, or writev()'s errno.
 */
static inline int eh_tracepoint_write(const struct eh_tracepoint *tp,
				      const struct eh_header *header,
				      const void *activity_id,
				      const void *related_id,
				      struct iovec *iov, unsigned int n)
{
	if (!eh_tracepoint_enabled(tp))
		return EBADF;
	return eh__tracepoint_write(tp, header, activity_id, related_id, iov, n);
}

#ifdef __cplusplus
}
#endif

#endif /* EVENTHEADER_EH_TRACEPOINT_H */
