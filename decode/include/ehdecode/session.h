/* SPDX-License-Identifier: MIT */
/*
 * ehdecode/session.h - collect tracepoint events live, through perf
 *
 *	struct ehd_session *s = ehd_session_new(0);
 *	struct ehd_reader *r = ehd_reader_new(EHD_READER_SORT_TIME);
 *	const struct ehd_event *ev;
 *	int err;
 *
 *	err = ehd_session_add(s, "MyProvider");
 *	if (!err)
 *		err = ehd_session_start(s);
 *	if (!err)
 *		err = ehd_reader_open_session(r, s);
 *	while (!err && !stop_wanted) {
 *		err = ehd_reader_next(r, &ev);
 *		if (err == -EAGAIN)
 *			err = ehd_session_poll(s, 100) < 0 ? ... : 0;
 *		else if (err > 0)
 *			... use ev (see ehdecode/event.h) ..., err = 0;
 *	}
 *	ehd_session_stop(s);
 *	while (ehd_reader_next(r, &ev) > 0)
 *		... the rest ...
 *	if (err < 0)
 *		fprintf(stderr, "%s\n", ehd_session_error(s));
 *
 * A session enables tracepoints with perf_event_open() on every CPU, one
 * ring buffer per CPU, and gives out what the kernel writes there as the
 * stream "perf record -o -" writes (perf.data in pipe mode): event
 * descriptions and tracepoint formats first, then the records, with a
 * round end after each pass over the rings. ehd_session_read() gives the
 * bytes (to store them as a perf.data file); ehd_reader_open_session()
 * (ehdecode/reader.h) decodes them, merged in time order across CPUs.
 * Or the session writes a perf.data file itself
 * (ehd_session_set_output()).
 *
 * The rings are emptied by a thread of the session's own, which does
 * nothing else: woken when a ring is a quarter full (or every 100 ms;
 * without a latency bound, ehd_session_set_latency(), only when it is
 * half full, or three quarters when the data go to a spool that holds
 * every ring twice over), it copies what the rings hold, as it is, and
 * gives the space back to the kernel at once. What it copies waits in a
 * spool for the caller's ehd_session_read(): in memory up to a bound,
 * then in a temporary file when one is allowed (ehd_session_set_spool());
 * beyond that the thread leaves the data in the rings, which the kernel
 * then counts as lost when they are full. With an output file the thread
 * writes the rings' data to it directly, with one writev() per pass, as
 * "perf record" does.
 *
 * Samples carry the time (CLOCK_MONOTONIC, or CLOCK_MONOTONIC_RAW with
 * EHD_SESSION_CLOCK_RAW; the offset to UTC is recorded), the cpu, pid and
 * tid, and the tracepoint's data; with EHD_SESSION_CALLCHAIN also the
 * user and kernel call chain. Thread names come as COMM records: one for
 * every thread in /proc at the start, then the kernel's for each fork,
 * exec and exit.
 *
 * Tracepoints are named by specs (ehd_session_add()). EventHeader
 * tracepoints that do not exist yet are registered by the session and
 * held while it lives, so that a program started after the session has
 * its events recorded from the first one. A provider name takes every
 * tracepoint of that provider, also those registered while the session
 * runs: ehd_session_poll() looks for new ones about every 100 ms.
 * (A program's events are written only while a consumer has their
 * tracepoint enabled: events of a tracepoint that appeared after the last
 * look are not written, so they are not lost either.)
 *
 * Samples the kernel could not store because a ring was full are counted
 * per CPU (ehd_session_stats()) and come in the stream as LOST records,
 * and as one LOST_SAMPLES record per event and CPU with its whole count
 * at the stop. ehd_session_stop() disables every event first, then takes
 * what the rings hold once: it does not wait for them to become empty.
 * In circular mode (EHD_SESSION_CIRCULAR, a flight recorder) the rings
 * are overwritten, newest over oldest, and read only by
 * ehd_session_snapshot() and ehd_session_stop(): what was overwritten is
 * not counted as lost.
 *
 * Errors are negative errnos with a reason from ehd_session_error() that
 * says what is missing and how to fix it: -ENOENT no tracefs, or no such
 * tracepoint; -EACCES/-EPERM not allowed to read tracefs or to use perf;
 * -EINVAL a bad spec or filter; -EBUSY wrong order of calls; -ENOMEM.
 */
#ifndef EHDECODE_SESSION_H
#define EHDECODE_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <ehdecode/common.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ehd_session_new() flags. */
#define EHD_SESSION_CIRCULAR	0x1u	/* flight recorder: keep the newest */
#define EHD_SESSION_CALLCHAIN	0x2u	/* samples carry call chains */
#define EHD_SESSION_CLOCK_RAW	0x4u	/* CLOCK_MONOTONIC_RAW times */

/*
 * Ring buffer size per CPU when none is set: 1 MiB. ehd_session_set_buffer()
 * rounds up to a power of two pages.
 */
#define EHD_SESSION_BUFFER_DEFAULT (1024u * 1024u)

/* Spool memory when none is set: 64 MiB (see ehd_session_set_spool()). */
#define EHD_SESSION_SPOOL_DEFAULT (64u * 1024u * 1024u)

/**
 * struct ehd_session_stats - counts since the session started
 * @samples: tracepoint samples in the output (CPU samples are not counted
 *	here: @cpu_samples). Written to a file (ehd_session_set_output()):
 *	those written, counted as they go (a file cut back for want of room
 *	holds fewer); of a @circular session, those its snapshots wrote.
 *	Otherwise, @kernel_samples
 * @lost: samples the kernel dropped because a ring was full
 * @bytes: bytes of stream made (spooled, or written to the output)
 * @nr_cpus: rings (one per online CPU)
 * @tracepoints: tracepoints enabled
 * @registered: EventHeader tracepoints the session registered itself
 * @lost_per_cpu: @nr_cpus counts of @lost by CPU number; valid until
 *	the session is freed
 * @cpus: the CPU number of each ring (@nr_cpus entries, same lifetime)
 * @spool_pending: bytes in the spool not read yet
 * @spool_peak: most bytes the spool held in memory at once
 * @spool_disk_peak: the largest its file grew (0: it was never used)
 * @full_passes: passes over the rings that left a ring's data there for
 *	lack of room in the spool
 * @limit_dropped: ring bytes not written because the output had reached
 *	its bound (ehd_session_set_max_size()), or found no room
 * @no_room: a normal-mode perf.data: the errno of a write that found no
 *	room (ENOSPC, EDQUOT; EFBIG past RLIMIT_FSIZE), 0 if none. The file
 *	was then cut back to the end of the last record it took whole,
 *	takes nothing more (ehd_session_poll() returns -EFBIG), and is
 *	completed there at the stop (cut back further, to where it was
 *	whole before, until its end fits: the places kept are close at the
 *	file's end and farther apart back to where its records begin).
 *	Back to 0 if it could not be completed.
 * @kernel_samples: tracepoint samples the kernel says it wrote to the
 *	rings: their events' counts less the lost. It can say more than it
 *	wrote: Linux 6.12 was seen counting a sample it never wrote to the
 *	ring, and counting it as lost neither (in 3 of 200 recordings of
 *	0.3 s, with a producer writing flat out).
 * @cpu_samples: CPU samples (ehd_session_set_cpu_sampling()) written to
 *	a file, counted as @samples is; 0 without a file (the kernel does
 *	not count them: a cpu-clock event's count is time)
 * @circular: the session is circular (EHD_SESSION_CIRCULAR): its output
 *	holds its snapshots, the newest of what the rings took, and
 *	@kernel_samples counts the samples overwritten before them too
 */
struct ehd_session_stats {
	uint64_t samples;
	uint64_t lost;
	uint64_t bytes;
	uint32_t nr_cpus;
	uint32_t tracepoints;
	uint32_t registered;
	const uint64_t *lost_per_cpu;
	const uint32_t *cpus;
	uint64_t spool_pending;
	uint64_t spool_peak;
	uint64_t spool_disk_peak;
	uint64_t full_passes;
	uint64_t limit_dropped;
	int no_room;
	uint64_t kernel_samples;
	uint64_t cpu_samples;
	bool circular;
};

struct ehd_session;

/**
 * ehd_session_new() - make a session
 * @flags: EHD_SESSION_* bits
 *
 * Return: the session, or NULL with errno set (EINVAL, ENOMEM).
 */
EHD_API struct ehd_session *ehd_session_new(unsigned int flags);

/**
 * ehd_session_free() - stop if running, close everything, free
 * @s: the session, or NULL
 *
 * Tracepoints the session registered go away with it (unless a program
 * still has them).
 */
EHD_API void ehd_session_free(struct ehd_session *s);

/**
 * ehd_session_add() - name tracepoints to collect, before the start
 * @s: the session
 * @spec: one of
 *	- "MyProvider_L4K1", "MyProvider_L5K0Gmygroup": an EventHeader
 *	  tracepoint (registered by the session if it does not exist);
 *	- "MyProvider": every "MyProvider_L*K*" tracepoint, now and later;
 *	- "system:event": any tracepoint ("sched:sched_process_exec",
 *	  "user_events:MyProvider_L4K1");
 *	- any of these followed by "/stacks": its samples carry the user and
 *	  kernel call chain (EHD_SESSION_CALLCHAIN does so for all).
 *
 * Return: 0, -EINVAL for a malformed spec, -EBUSY once started.
 */
EHD_API int ehd_session_add(struct ehd_session *s, const char *spec);

/* Most CPU samples per second per CPU that ehd_session_set_cpu_sampling() takes. */
#define EHD_SESSION_HZ_MAX 100000u

/**
 * ehd_session_set_cpu_sampling() - sample every CPU @hz times a second
 * @s: the session, not started
 * @hz: samples per second per CPU (the cpu-clock software event, so it
 *	works in virtual machines too); 0 for none
 *
 * Each sample ("cpu-clock") carries the time, cpu, pid, tid, the period
 * (ns since the previous one) and the user and kernel call chain. With
 * CPU sampling, off-CPU stacks or any call chains, the stream also has
 * the executable mappings of every process: MMAP2 records from
 * /proc/PID/maps at the start, then the kernel's for each new one, so
 * that a reader can attribute addresses to files.
 *
 * Return: 0, -EINVAL above EHD_SESSION_HZ_MAX, -EBUSY once started.
 */
EHD_API int ehd_session_set_cpu_sampling(struct ehd_session *s,
					 unsigned int hz);

/**
 * ehd_session_set_off_cpu() - record where threads wait
 * @s: the session, not started
 * @on: collect sched:sched_switch with the call chain of the thread that
 *	leaves the CPU (ehd_reader_open_session() with EHD_READER_SYSTEM
 *	turns the switches into "cswitch" events: see ehdecode/reader.h)
 *
 * Return: 0, -EBUSY once started.
 */
EHD_API int ehd_session_set_off_cpu(struct ehd_session *s, bool on);

/**
 * ehd_session_add_pid() - collect only the events of process @pid (and of
 * the others added), before the start
 * @s: the session
 * @pid: a process (its whole thread group: a thread's tid names it too)
 *
 * Without it, a session collects every process's events. Aimed at
 * processes, it opens each event in the kernel on each of their threads
 * (per CPU, into the CPU's ring), inherited by the threads they start
 * afterwards, and with ehd_session_set_children() by the processes they
 * start; side-band records (COMM, MMAP2, FORK, EXIT) and the threads and
 * mappings read from /proc at the start are only theirs. Tracepoints found
 * while running are opened on the threads the aim has then. Its cost is
 * one perf event per thread, CPU and tracepoint (as perf record -p).
 *
 * Return: 0, -ESRCH when there is no such process, -EBUSY once started.
 */
EHD_API int ehd_session_add_pid(struct ehd_session *s, pid_t pid);

/**
 * ehd_session_set_children() - aimed: also the processes the aim's
 * processes start (forks, and theirs) from the start on, and those they
 * had started before it
 * @s: the session
 * @on: follow them
 *
 * Return: 0, or -EBUSY once started.
 */
EHD_API int ehd_session_set_children(struct ehd_session *s, bool on);

/**
 * ehd_session_set_cpus() - collect only on these CPUs, before the start
 * @s: the session
 * @cpus: CPU numbers (the rings are theirs only)
 * @n: how many; 0 for every online CPU (the default)
 *
 * Return: 0, -EINVAL for a CPU the machine does not have (reason from
 * ehd_session_error()), -EBUSY once started. A CPU that is offline fails
 * ehd_session_start() with -ENODEV.
 */
EHD_API int ehd_session_set_cpus(struct ehd_session *s, const int *cpus,
				 size_t n);

/*
 * ehd_session_set_max_size() flag: at the bound, keep what is left in the
 * rings for the next file (ehd_session_switch_output()) instead of
 * dropping it.
 */
#define EHD_SESSION_SIZE_SWITCH 0x1u

/**
 * ehd_session_set_max_size() - bound the output file
 * @s: the session, writing to a file (ehd_session_set_output())
 * @bytes: the most bytes the file may have once it is ended (0: no bound)
 * @flags: 0, or EHD_SESSION_SIZE_SWITCH
 *
 * The thread that writes the rings' data writes whole records up to the
 * bound (less what the stop and a normal-mode file's end add), then
 * nothing more, and ehd_session_poll() returns -EFBIG. Without flags,
 * what came after is dropped and counted (ehd_session_stats()'s
 * @limit_dropped): stop the session then, and the file is complete. With
 * EHD_SESSION_SIZE_SWITCH it waits in the rings (which fill meanwhile):
 * ehd_session_switch_output() ends the file and writes it to the next,
 * bounded the same. A session read through ehd_session_read() has no
 * bound (bound its writer: ehd_writer_set_limit()).
 *
 * Return: 0, -EINVAL for an unknown flag, -EBUSY once started. A bound too
 * small for the session's description fails ehd_session_start() with
 * -EFBIG.
 */
EHD_API int ehd_session_set_max_size(struct ehd_session *s, uint64_t bytes,
				     unsigned int flags);

/**
 * ehd_session_set_filter() - a kernel filter on EventHeader tracepoints
 * @s: the session, not started
 * @expr: an ftrace filter expression on the fields every EventHeader
 *	tracepoint has: eventheader_flags, version, id, tag, opcode, level
 *	(e.g. "id == 7 || opcode == 1"); NULL for none
 *
 * The kernel evaluates it before a sample is copied to a ring (BPF
 * programs do not run on user_events, see docs/live-collection.md).
 * Classic tracepoints are not filtered.
 *
 * Return: 0, -EINVAL when the expression is malformed (checked at
 * ehd_session_start(), with the reason), -EBUSY once started.
 */
EHD_API int ehd_session_set_filter(struct ehd_session *s, const char *expr);

/**
 * ehd_session_set_buffer() - ring buffer size per CPU
 * @s: the session, not started
 * @bytes: the size; rounded up to a power of two pages, at least 2 pages
 *
 * Return: 0, -EINVAL for 0 or more than 1 GiB, -EBUSY once started.
 */
EHD_API int ehd_session_set_buffer(struct ehd_session *s, size_t bytes);

/**
 * ehd_session_set_latency() - how long a record may wait in its ring
 * @s: the session, not started
 * @ms: the longest, in milliseconds, between two passes of the thread that
 *	empties the rings (default 100); -1: none, a ring is emptied when it
 *	is half full (its wakeup watermark; a quarter with a bound) and at
 *	the stop, as perf record does; three quarters full when what is
 *	taken goes to a spool that holds every ring twice over, not a file
 *	(a copy to memory is done long before the last quarter fills, and
 *	fewer wakes cost less). What is
 *	read as the recording runs (ehd_session_read(), a pipe) wants a
 *	bound, as does a reader that looks processes up in /proc as it
 *	converts (EHD_READER_SYSTEM: a process gone by then is read without
 *	its files' names); a file read once the recording has ended does
 *	not, and with none the thread does not wake at all while the rings
 *	fill slowly, nor does the one that converts until what waits for it
 *	is as much as the rings hold (a quarter of the spool at most).
 *
 * Return: 0, -EINVAL below -1, -EBUSY once started.
 */
EHD_API int ehd_session_set_latency(struct ehd_session *s, int ms);

/**
 * ehd_session_set_output() - write the stream to a file, not through
 * ehd_session_read()
 * @s: the session, not started
 * @fd: a descriptor open for writing, kept by the caller (closed after
 *	ehd_session_stop()). A regular file at offset 0 becomes a normal-mode
 *	perf.data, as "perf record -o FILE" writes it: a header, the records
 *	as the rings held them, and the event descriptions, formats and
 *	machine details at the end, which ehd_session_stop() writes
 *	(a file that a failed or aborted run leaves has no valid header).
 *	Anything else (a pipe) gets the pipe-mode stream.
 *
 * A write that fails (a full disk, a closed pipe) ends the writing: the
 * next ehd_session_poll() returns its errno (-ENOSPC, -EPIPE...).
 *
 * Return: 0, -EBADF, -EBUSY once started.
 */
EHD_API int ehd_session_set_output(struct ehd_session *s, int fd);

/**
 * ehd_session_set_spool() - how much may wait for ehd_session_read()
 * @s: the session, not started
 * @memory: bytes in memory (default EHD_SESSION_SPOOL_DEFAULT); at least
 *	what the rings hold together is allowed, whatever this says
 * @disk: bytes in a temporary file once memory is full; 0 for none (the
 *	default)
 * @dir: the folder of that file (it is deleted at once and goes away
 *	with the process); NULL for none
 *
 * A reader that falls behind is caught up with from the spool; past both
 * bounds, the rings fill and the kernel counts what it drops.
 *
 * Return: 0, -EINVAL for no memory, -ENOMEM, -EBUSY once started.
 */
EHD_API int ehd_session_set_spool(struct ehd_session *s, size_t memory,
				  uint64_t disk, const char *dir);

/**
 * ehd_session_set_cmdline() - the command line recorded in the stream
 * @s: the session, not started
 * @argv: NULL-terminated words; copied
 *
 * Return: 0, -ENOMEM, -EBUSY once started.
 */
EHD_API int ehd_session_set_cmdline(struct ehd_session *s,
				    const char *const *argv);

/**
 * ehd_session_start() - register, open, map and enable
 * @s: the session, with at least one spec
 *
 * Return: 0, or a negative errno (reason from ehd_session_error()).
 */
EHD_API int ehd_session_start(struct ehd_session *s);

/**
 * ehd_session_poll() - wait until a ring has data to read
 * @s: a started session
 * @timeout_ms: the most to wait; -1 for no limit
 *
 * Also looks for new tracepoints of provider specs. Returns at once when
 * stream bytes are waiting to be read; otherwise when the drain thread
 * has taken more, or the wait ends. With an output file it only sleeps,
 * looks for tracepoints and says whether the writing failed. In circular
 * mode nothing comes until ehd_session_snapshot().
 *
 * Return: 1 when there is something to read, 0 on timeout, -EINTR when a
 * signal came, -EFBIG when the output file takes no more (its bound came,
 * or it found no room: ehd_session_stats() @no_room), or another negative
 * errno.
 */
EHD_API int ehd_session_poll(struct ehd_session *s, int timeout_ms);

/**
 * ehd_session_read() - the collected stream, perf.data in pipe mode
 * @s: a started session
 * @buf: gets bytes
 * @size: at most this many
 *
 * The bytes may be stored as they come: the result is a perf.data file
 * that "perf script -i" and ehd_reader_open() read.
 *
 * Return: the number of bytes; -EAGAIN when there is nothing now; 0 at
 * the end, after ehd_session_stop() and the last byte; -EINVAL with an
 * output file.
 */
EHD_API ssize_t ehd_session_read(struct ehd_session *s, void *buf,
				 size_t size);

/**
 * ehd_session_snapshot() - circular mode: take what the rings hold now
 * @s: a started circular session
 *
 * Records newer than the previous snapshot join the stream.
 *
 * Return: 0, -EINVAL when not circular, or a negative errno.
 */
EHD_API int ehd_session_snapshot(struct ehd_session *s);

/**
 * ehd_session_stop() - disable the tracepoints, take the last records
 * @s: the session; stopping twice does nothing
 *
 * Every event is disabled first; then what the rings hold joins the
 * stream, once (in circular mode: as a last snapshot), with the loss
 * counts; after it, ehd_session_read() ends. An output file is completed.
 *
 * Return: 0 or a negative errno.
 */
EHD_API int ehd_session_stop(struct ehd_session *s);

/**
 * ehd_session_switch_output() - end the output file and go on in another
 * @s: a running session writing to a file (ehd_session_set_output())
 * @fd: the next file
 *
 * The file so far is ended as ehd_session_stop() ends it (the losses
 * since it began, and a normal-mode file's descriptions), then @fd starts
 * as the first did: descriptions, the threads and mappings there are now,
 * then the rings' data. Nothing is lost between them: the thread that
 * empties the rings waits meanwhile, and the rings keep what comes. Each
 * file reads on its own; together they hold what one would. The caller
 * closes the previous descriptor.
 *
 * Return: 0, or a negative errno (reason from ehd_session_error()).
 */
EHD_API int ehd_session_switch_output(struct ehd_session *s, int fd);

/**
 * ehd_session_perf_file() - make a stored stream a normal-mode perf.data
 * @pipe_fd: a file holding what ehd_session_read() gave, read from where
 *	it is to its end
 * @out_fd: where the perf.data goes (written from its start, with pwrite()
 *	for the header at the end)
 * @why: gets the reason on failure
 * @why_size: its size
 *
 * The stream is a perf.data file already (pipe mode), which perf's reader
 * takes as long as every tracepoint was known at the start. A session that
 * found tracepoints later describes them in the middle of the stream, which
 * perf's reader cannot follow (libehdecode's can). The normal-mode file has
 * every event and tracepoint format in its header, as "perf record -o FILE"
 * writes it.
 *
 * Return: 0, or a negative errno with @why set.
 */
EHD_API int ehd_session_perf_file(int pipe_fd, int out_fd, char *why,
				  size_t why_size);

/**
 * ehd_session_stats() - counts so far
 * @s: the session
 * @stats: gets them
 */
EHD_API void ehd_session_stats(const struct ehd_session *s,
			       struct ehd_session_stats *stats);

/**
 * ehd_session_tracepoint() - the counts of one tracepoint
 * @s: a started session
 * @i: from 0 to the stats' @tracepoints - 1
 * @name: gets "system:event" (owned by @s)
 * @samples: gets its samples the kernel wrote to the rings
 * @lost: gets its samples the kernel dropped because a ring was full
 *	(0 before Linux 6.0, which does not count them by event)
 *
 * Return: 0, or -ENOENT past the last.
 */
EHD_API int ehd_session_tracepoint(const struct ehd_session *s, size_t i,
				   const char **name, uint64_t *samples,
				   uint64_t *lost);

/**
 * ehd_session_error() - why the last call failed
 * @s: the session
 *
 * Return: the reason (owned by @s), or NULL if nothing failed.
 */
EHD_API const char *ehd_session_error(const struct ehd_session *s);

#ifdef __cplusplus
}
#endif

#endif /* EHDECODE_SESSION_H */
