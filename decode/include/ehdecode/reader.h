/* SPDX-License-Identifier: MIT */
/*
 * ehdecode/reader.h - read events from trace files
 *
 *	struct ehd_reader *r = ehd_reader_new(EHD_READER_SORT_TIME);
 *	const struct ehd_event *ev;
 *	uint64_t offset;
 *	int err;
 *
 *	err = ehd_reader_open(r, "perf.data");
 *	if (!err)
 *		while ((err = ehd_reader_next(r, &ev)) > 0)
 *			... use ev (see ehdecode/event.h) ...
 *	if (err < 0) {
 *		const char *why = ehd_reader_error(r, &offset);
 *
 *		fprintf(stderr, "offset %llu: %s\n",
 *			(unsigned long long)offset, why);
 *	}
 *	ehd_reader_free(r);
 *
 * The kind of input is found from its first bytes:
 *  - perf.data as "perf record" writes it, normal or pipe mode, either
 *    byte order, with zstd-compressed records (perf record -z);
 *  - an interceptor capture (.dat): records of {u32 little-endian size
 *    including itself, NUL-terminated tracepoint name, EventHeader event},
 *    as the producer's EH_INTERCEPTOR backend writes them;
 *  - nettrace (.NET EventPipe and PerfView traces): version 6, as
 *    libehdecode writes it, and versions 3 (netperf), 4 and 5. Events
 *    come in file order (libehdecode's files are in time order); those a
 *    libehdecode writer converted come back with the identity and field
 *    rendering they had;
 *  - Heph traces (the Heph runtime's trace format, *.bin.log): metadata
 *    and event packets, big-endian; each event packet is one event of
 *    kind EHD_EVENT_HEPH (see ehdecode/event.h), in file order (Heph
 *    writes an event when it ends, so start times are not in order).
 *    ehd_reader_trace_info() gives the epoch as the clock offset.
 * "-" reads standard input, which may be a pipe.
 *
 * Memory does not grow with the input: events are streamed; with
 * EHD_READER_SORT_TIME the samples of the last rounds are held to be
 * sorted, up to a bound (64 MiB of records) after which those held are
 * given out sorted and counted in ehd_reader_stats().early_flushes.
 *
 * Errors are negative errnos: -EBADMSG damaged or truncated input,
 * -ENOTSUP input of a kind or version not supported, -EFBIG sizes beyond
 * the limits, -ENOMEM, -EINVAL wrong use, or the errno of a failed
 * open() or read(). ehd_reader_error() gives the reason and the offset in
 * the input; events before the damage have been given out.
 */
#ifndef EHDECODE_READER_H
#define EHDECODE_READER_H

#include <stddef.h>
#include <stdint.h>

#include <ehdecode/common.h>
#include <ehdecode/event.h>
#include <ehdecode/trace.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * ehd_reader_new() flags.
 * EHD_READER_SORT_TIME: give perf samples out in time order, by perf's
 *	own rule: at the end of a round (a FINISHED_ROUND record), the
 *	samples up to the latest time seen before the previous round's end
 *	are complete and go out sorted; the others wait (at most about two
 *	rounds are held). Without rounds, the whole input is one round.
 */
#define EHD_READER_SORT_TIME	0x1u
/*
 * EHD_READER_STRICT: nettrace: also refuse what TraceEvent (PerfView's
 *	reader) refuses or reads wrongly: metadata without an OpCode, a
 *	(provider, event id) pair naming two field lists, reused ids, unknown
 *	thread or label list references, sequence numbers not counting from
 *	1, rows out of the order IsSorted and sequence points promise,
 *	payloads over 65,535 bytes, fixed arrays of 0 or of 65,515 bytes or
 *	more, and the like. How the writer's output is checked.
 */
#define EHD_READER_STRICT	0x2u
/*
 * EHD_READER_SYSTEM: perf input: also give out what a system trace needs
 *	(see ehdecode/event.h): processes and their executable mappings as
 *	events of kind EHD_EVENT_SYSTEM (from COMM, FORK, EXIT, MMAP and
 *	MMAP2 records), cpu-clock and task-clock samples as "cpu" samples,
 *	and each sched:sched_switch as a "cswitch" sample of the thread that
 *	comes (a switch to a thread not seen leaving before is not given
 *	out); stacks can then be attributed with ehd_event_frames(), whose
 *	function names come from each file's .symtab, else from its
 *	separate debug file (by build id under /usr/lib/debug/.build-id, or
 *	$EHD_DEBUG_DIR; then by .gnu_debuglink, its CRC checked), else from
 *	its .dynsym.
 */
#define EHD_READER_SYSTEM	0x4u
/*
 * EHD_READER_RAW_NAMES: with EHD_READER_SYSTEM, function names as the
 *	symbol tables have them; without it, C++ and Rust names are
 *	demangled (libiberty: "foo::bar(int)" for "_ZN3foo3barEi").
 */
#define EHD_READER_RAW_NAMES	0x8u

/* What ehd_reader_kind() says. */
enum ehd_input_kind {
	EHD_INPUT_NONE = 0,		/* nothing open */
	EHD_INPUT_PERF = 1,		/* perf.data, normal mode */
	EHD_INPUT_PERF_PIPE = 2,	/* perf.data, pipe mode */
	EHD_INPUT_DAT = 3,		/* interceptor capture */
	EHD_INPUT_NETTRACE = 4,		/* nettrace, netperf */
	EHD_INPUT_SESSION = 5,		/* a live session (ehdecode/session.h) */
	EHD_INPUT_HEPH = 6,		/* a Heph trace */
};

/**
 * struct ehd_reader_stats - counts since the input was opened
 * @events: events given out
 * @records: records read (perf: all record types; nettrace: event rows)
 * @lost: events the kernel reported lost: the sum of the
 *	PERF_RECORD_LOST_SAMPLES records (each event's total, written at the
 *	end by perf record and ehrecord) when there are any, else of the
 *	PERF_RECORD_LOST records (which also count lost side-band records);
 *	nettrace: gaps in sequence numbers
 * @lost_records: LOST and LOST_SAMPLES records seen
 * @not_eventheader: events of EventHeader tracepoints whose data are not
 *	a valid EventHeader event (given out as classic events, with
 *	ehd_event.decode_error set)
 * @unknown_id: samples whose id matches no event of the file (given out
 *	as raw events)
 * @early_flushes: times a round was too large to be held for sorting
 * @lost_other: records other than events that the kernel lost (COMM,
 *	MMAP, FORK: thread names and the files of stack frames may then be
 *	missing), from the LOST_SAMPLES records of perf's side-band event
 * @throttled: THROTTLE records: times the kernel stopped sampling an
 *	event for a while because it came too often (its samples in that
 *	while were never taken, and are not in @lost)
 * @format_errors: tracepoint formats that could not be parsed (their
 *	events are given out as raw events)
 * @malformed: records not used because they are malformed (perf: COMM
 *	and FORK records too short; nettrace v4/v5: event rows of metadata
 *	id 0)
 * @dangling: nettrace: events whose row names a thread, stack or label
 *	list the file does not have (given out without it)
 * @stacks: system traces (perf read with EHD_READER_SYSTEM, nettrace):
 *	events given out with a call stack
 * @stacks_broken: of @stacks, those whose outermost frame is not in a C
 *	library, the dynamic loader or the process's own program: stacks that
 *	did not reach their thread's start, which PerfView shows under BROKEN
 *	(process 0's are not counted here but in @stacks_idle)
 * @stacks_idle: of @stacks, those of process 0 (the idle task: kernel
 *	frames only)
 * @frames_cut: perf with EHD_READER_SYSTEM: user frames cut from the
 *	outer end of stacks because no mapping of their process holds them
 *	(0, or what a frame-pointer walk read past the outermost frame)
 * @files_read: perf with EHD_READER_SYSTEM: mapped ELF files read (their
 *	program headers and build id)
 * @files_symbols: of @files_read, those whose symbol tables were read:
 *	the files a stack hit
 * @passed: of @events, those ehd_reader_pass() wrote to its writer
 *	itself, never made an ehd_event
 * @tracepoint_samples: perf: samples of tracepoints read (given out or
 *	not), what the kernel's counts of a live session's events
 *	(ehd_session_stats() kernel_samples) are to match once the whole
 *	stream is read
 */
struct ehd_reader_stats {
	uint64_t events;
	uint64_t records;
	uint64_t lost;
	uint64_t lost_records;
	uint64_t not_eventheader;
	uint64_t unknown_id;
	uint64_t early_flushes;
	uint64_t lost_other;
	uint64_t throttled;
	uint64_t format_errors;
	uint64_t malformed;
	uint64_t dangling;
	uint64_t stacks;
	uint64_t stacks_broken;
	uint64_t stacks_idle;
	uint64_t frames_cut;
	uint64_t files_read;
	uint64_t files_symbols;
	uint64_t passed;
	uint64_t tracepoint_samples;
};

struct ehd_reader;

/**
 * ehd_reader_new() - make a reader
 * @flags: EHD_READER_* bits
 *
 * Return: the reader, or NULL with errno set (EINVAL, ENOMEM).
 */
EHD_API struct ehd_reader *ehd_reader_new(unsigned int flags);

/**
 * ehd_reader_free() - close the input and free the reader
 * @r: the reader, or NULL
 */
EHD_API void ehd_reader_free(struct ehd_reader *r);

/**
 * ehd_reader_open() - open an input
 * @r: a reader with nothing open
 * @path: the file, or "-" for standard input
 *
 * Return: 0, or a negative errno (details from ehd_reader_error()).
 */
EHD_API int ehd_reader_open(struct ehd_reader *r, const char *path);

/**
 * ehd_reader_open_fd() - open an input on a descriptor
 * @r: a reader with nothing open
 * @fd: the descriptor; stays the caller's. A regular file is read from
 *	offset 0, anything else from where it is
 * @name: for messages, may be NULL
 *
 * Return: as ehd_reader_open().
 */
EHD_API int ehd_reader_open_fd(struct ehd_reader *r, int fd, const char *name);

struct ehd_session;

/**
 * ehd_reader_open_session() - read the events a live session collects
 * @r: a reader with nothing open (EHD_READER_SORT_TIME merges the CPUs'
 *	events in time order, as for perf.data)
 * @s: a started session (ehdecode/session.h); it must outlive the input
 *
 * The session's stream is read with ehd_session_read(): the two must not
 * both be used. ehd_reader_next() returns -EAGAIN when no event is
 * complete now; that is not a failure (wait with ehd_session_poll() and
 * call again). After ehd_session_stop() it gives the rest, then 0.
 *
 * Return: as ehd_reader_open().
 */
EHD_API int ehd_reader_open_session(struct ehd_reader *r,
				    struct ehd_session *s);

/**
 * ehd_reader_next() - the next event
 * @r: a reader with an open input
 * @ev: gets the event, valid until the next call on @r
 *
 * Only events are given out (perf samples of tracepoints and other
 * events); perf's other records are applied or counted.
 *
 * Return: 1 with an event, 0 at the end, or a negative errno (returned
 * again by later calls; except -EAGAIN from a live session).
 */
EHD_API int ehd_reader_next(struct ehd_reader *r, const struct ehd_event **ev);

struct ehd_writer;

/* Most events ehd_reader_pass() writes before it gives back. */
#define EHD_PASS_MAX 1024

/**
 * ehd_reader_pass() - ehd_reader_next() for events that go to a writer
 * @r: a reader with an open input
 * @w: the writer the caller writes @r's events to (ehdecode/writer.h),
 *	between its ehd_writer_begin_trace() and ehd_writer_end()
 * @ev: gets the next event for the caller to write, or NULL
 * @passed: gets the number of events this call wrote to @w itself,
 *	whatever it returns
 *
 * Some events can go from an input to an output without being made an
 * ehd_event: for now, EventHeader events of a perf.data or a live session
 * (read in time order, without EHD_READER_SYSTEM) whose bytes up to their
 * payload are those of their tracepoint's event before, written to
 * nettrace when that type is already in it, without a stack or activity
 * ids. ehd_reader_pass() writes those to @w itself, with the same bytes
 * ehd_writer_event() would write, counted by both as events
 * (ehd_reader_stats(), ehd_writer_stats()); any other event, and one
 * that would take @w past its size limit, is given to the caller, in
 * order, as ehd_reader_next() gives it.
 * With no such events (another input or format), it is ehd_reader_next().
 *
 * It gives back after at most EHD_PASS_MAX events written, so that a
 * caller can look at the time, signals and the like: then it returns 1
 * with *@ev NULL. A failure of @w's while it writes is said by the next
 * ehd_writer_event() and by ehd_writer_close(), as after an event the
 * caller wrote.
 *
 * Return: as ehd_reader_next(), 1 also with *@ev NULL.
 */
EHD_API int ehd_reader_pass(struct ehd_reader *r, struct ehd_writer *w,
			    const struct ehd_event **ev, uint64_t *passed);

/**
 * ehd_reader_kind() - what kind of input is open
 * @r: the reader
 *
 * Return: enum ehd_input_kind.
 */
EHD_API int ehd_reader_kind(const struct ehd_reader *r);

/**
 * ehd_reader_trace_info() - what the input says about the recording
 * @r: the reader
 *
 * In pipe mode, it fills in as the headers come with the data.
 *
 * Return: the info, owned by @r.
 */
EHD_API const struct ehd_trace_info *ehd_reader_trace_info(struct ehd_reader *r);

/**
 * ehd_reader_stats() - counts so far
 * @r: the reader
 * @stats: gets them
 */
EHD_API void ehd_reader_stats(const struct ehd_reader *r,
			      struct ehd_reader_stats *stats);

/**
 * ehd_reader_restate() - give the processes there are again
 * @r: a reader with EHD_READER_SYSTEM, of perf.data or a live session
 *
 * The next events are, before the input goes on, an ExistingProcess system
 * event for each process known and not exited, each followed by its
 * mappings (EHD_SYSTEM_MAPPING), at the time of the event given last: for
 * an output that starts afresh in the middle (ehrecord --switch-output),
 * so that it names the processes its samples come from.
 *
 * Return: 0, or -ENOTSUP for another input or without EHD_READER_SYSTEM.
 */
EHD_API int ehd_reader_restate(struct ehd_reader *r);

/**
 * ehd_reader_error() - why the last call failed
 * @r: the reader
 * @offset: gets the input offset where it was found (may be NULL)
 *
 * Return: the reason (owned by @r), or NULL if nothing failed.
 */
EHD_API const char *ehd_reader_error(const struct ehd_reader *r,
				     uint64_t *offset);

#ifdef __cplusplus
}
#endif

#endif /* EHDECODE_READER_H */
