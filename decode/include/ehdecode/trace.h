/* SPDX-License-Identifier: MIT */
/*
 * ehdecode/trace.h - what readers give and writers take besides the
 * events themselves: the trace's information (struct ehd_trace_info,
 * from ehd_reader_trace_info(), to ehd_writer_begin_trace()), the output
 * formats and how a writer writes (enum ehd_output_format,
 * EHD_WRITER_*), which meta of an event it shows (EHD_META_*), and what
 * it counted (struct ehd_writer_stats). Every format of libehdecode
 * works with these; ehdecode/reader.h and ehdecode/writer.h include this
 * header.
 */
#ifndef EHDECODE_TRACE_H
#define EHDECODE_TRACE_H

#include <stdint.h>

#include <ehdecode/common.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * struct ehd_trace_info - what the input says about the recording
 * @hostname, @osrelease, @arch, @cpu_desc, @perf_version: from perf's
 *	headers, NULL when absent
 * @cmdline: the recording command line, NULL when absent
 * @nr_cpus_online: 0 when unknown
 * @nr_cpus_avail: 0 when unknown
 * @clockid: clock of the event times, -1 when unknown
 * @has_clock_offset: @clock_offset is known
 * @clock_offset: time + @clock_offset = ns since 1970 UTC (modulo 2^64)
 * @long_size: size of a C long where the trace was recorded, 0 unknown
 * @page_size: page size there, 0 unknown
 * @big_endian: the input is big-endian
 * @format_version: nettrace: the format version (3 to 6), else 0
 * @cpu_sample_period: ns between two CPU samples (cpu-clock) on a CPU,
 *	0 when the input has none; nettrace: its ExpectedCPUSamplingRate
 */
struct ehd_trace_info {
	const char *hostname;
	const char *osrelease;
	const char *arch;
	const char *cpu_desc;
	const char *perf_version;
	const char *cmdline;
	uint32_t nr_cpus_online;
	uint32_t nr_cpus_avail;
	int32_t clockid;
	int has_clock_offset;
	uint64_t clock_offset;
	uint32_t long_size;
	uint32_t page_size;
	int big_endian;
	uint32_t format_version;
	uint64_t cpu_sample_period;
};

/* The output formats (ehd_writer_new(), ehd_writer_format()). */
enum ehd_output_format {
	EHD_OUT_JSON = 1,
	EHD_OUT_JSONL = 2,
	EHD_OUT_TEXT = 3,
	EHD_OUT_NETTRACE = 4,
	EHD_OUT_HEPH = 5,
	EHD_OUT_CHROME = 6,
	EHD_OUT_CSV = 7,
};

/* What an output format is (ehd_writer_format()). */
#define EHD_FORMAT_BINARY	0x1u	/* not text: not for a terminal */
/*
 * Events are written from their tracepoint records: events typed by
 * their source's own metadata (read from nettrace or a Heph trace)
 * cannot be written.
 */
#define EHD_FORMAT_RECORDS_ONLY	0x2u

/* ehd_writer_new() flags. */
#define EHD_WRITER_SPACE	0x1u	/* JSON: a space around tokens */
#define EHD_WRITER_FIELD_TAGS	0x2u	/* name a tagged field "name;tag=0xN" */
#define EHD_WRITER_BOM		0x4u	/* JSON: start with a UTF-8 BOM */
/*
 * JSON and text: well-formed UTF-8 only. By default strings are written
 * as the reference decoder writes them, which an input that is not
 * well-formed UTF-8 (or UTF-32 beyond U+10FFFF) makes ill-formed; with
 * this flag what is ill-formed becomes U+FFFD (counted in the stats'
 * @utf8_replaced). Chrome, Heph and nettrace always do so.
 */
#define EHD_WRITER_UTF8_STRICT	0x8u
/*
 * Make the memory the format holds at its largest in use (nettrace: one
 * window of events) at once, and write to each of its pages: a live
 * recording then takes no page faults for it as its load begins. Formats
 * that hold nothing take no note of it.
 */
#define EHD_WRITER_RESERVE	0x10u

/* Which meta to show. */
#define EHD_META_N			0x1u	/* JSON "n" */
#define EHD_META_TIME			0x2u
#define EHD_META_CPU			0x4u
#define EHD_META_PID			0x8u
#define EHD_META_TID			0x10u
#define EHD_META_ID			0x20u
#define EHD_META_VERSION		0x40u
#define EHD_META_LEVEL			0x80u
#define EHD_META_KEYWORD		0x100u
#define EHD_META_OPCODE			0x200u
#define EHD_META_TAG			0x400u
#define EHD_META_ACTIVITY		0x800u
#define EHD_META_RELATED_ACTIVITY	0x1000u
#define EHD_META_PROVIDER		0x10000u
#define EHD_META_EVENT			0x20000u
#define EHD_META_OPTIONS		0x40000u
#define EHD_META_FLAGS			0x80000u
#define EHD_META_COMMON			0x100000u	/* classic common_* */
#define EHD_META_COMM			0x200000u	/* thread, process names */
#define EHD_META_STACK			0x400000u	/* see ehd_event_frames() */
#define EHD_META_DEFAULT		0xffffu
#define EHD_META_ALL			0x7fffffu

/**
 * ehd_meta_parse() - meta bits from a list of names
 * @list: comma-separated names: n, time, cpu, pid, tid, id, version,
 *	level, keyword, opcode, tag, activity, relatedActivity, provider,
 *	event, options, flags, common, comm, stack; "default", "all" and
 *	"none" too
 *	(case does not matter)
 * @meta: gets the bits
 *
 * Return: 0, or -EINVAL with @meta unchanged (an unknown name).
 */
EHD_API int ehd_meta_parse(const char *list, unsigned int *meta);

/**
 * struct ehd_writer_stats - what a writer did (@events and @bytes for
 * every format; nettrace counts @skipped to @payload_bytes, chrome
 * @unmatched to @untimed, Heph what its doc says)
 * @events: events written (Heph: event packets; an activity's start and
 *	stop make one)
 * @bytes: bytes written out
 * @skipped: events not written: larger than nettrace holds (65,535
 *	bytes of payload after conversion) or of more metadata than a row;
 *	Heph: packets over 4 GiB
 * @reordered: events older than the previous window's sequence point,
 *	written at its time (only when the input is not in time order);
 *	Heph: events before the epoch (the first event's time), written at
 *	time 0
 * @lossy: code points outside UTF-16 replaced by U+FFFD, and names
 *	(of processes, files, functions) cut, at a character's start, to
 *	what an event's 65,535 bytes of payload leave; Heph: strings and
 *	names cut to 65,535 bytes, arrays to 65,535 elements
 * @stacks_cut: stacks cut to the 8,190 frames TraceEvent reads
 * @metadata: event types (metadata rows) written
 * @header_bytes: bytes of event headers (nettrace compressed headers)
 * @payload_bytes: bytes of event payloads
 * @unmatched: activity starts and stops that pair with nothing (a
 *	start or stop without an activity id, a stop with no open start of
 *	its id on its thread), written as instant events
 * @unfinished: activities without a stop at the end of their
 *	source, ended at its last time (Heph: written with end = start
 *	when their source ended, or their id started again)
 * @split: activities begun inside another and open at its stop,
 *	ended there and begun again just after it (to keep the nesting)
 * @untimed: events without a time, put at the time of the event
 *	before them (Heph: written at time 0)
 * @utf8_replaced: ill-formed UTF-8 written as U+FFFD (one for each
 *	maximal part of an ill-formed sequence): in Chrome JSON, Heph
 *	strings and the UTF-8 strings of nettrace always, in JSON and text
 *	with EHD_WRITER_UTF8_STRICT
 * @untyped: nettrace: events whose fields need more metadata than a row
 *	holds, written as their record's fields or bytes
 * @trailing: EventHeader events whose data go on after their last field
 *	(more than the up to 7 bytes of perf's padding): those bytes are not
 *	written (no field declares them)
 * @fields_cut: events with a field its record does not hold (written as
 *	null) or an array cut inside an element (the part left out)
 * @lost: events lost before the writer saw them, as told by
 *	ehd_writer_add_lost()
 * @no_room: output to a regular file: the errno of a write that found
 *	no room (ENOSPC, EDQUOT; EFBIG past RLIMIT_FSIZE), 0 if none. The
 *	file was then cut back and ended, complete: nettrace to the windows
 *	written whole before it (to its Trace block, without events, if
 *	there was none), the other formats to the end of an event of the
 *	last source begun or the one before it (also after those were
 *	ended: their end is written again), their ending (closing
 *	brackets, trailer) after it.
 *	It takes no more events (ehd_writer_event() returns -EFBIG);
 *	ehd_writer_close() returns the error. @events and @bytes are those
 *	of what is in the file, as are the other counts, and the ending is
 *	the one those events have: Chrome's and Heph's end the activities
 *	open at the cut as unfinished (one begun after it is not there),
 *	and Chrome's trailer counts those events. Stays 0 where the file
 *	could not be ended so (a pipe; not even nettrace's Trace block fit,
 *	or, in another format, one event and the ending): the output is
 *	lost.
 */
struct ehd_writer_stats {
	uint64_t events;
	uint64_t bytes;
	uint64_t skipped;
	uint64_t reordered;
	uint64_t lossy;
	uint64_t stacks_cut;
	uint64_t metadata;
	uint64_t header_bytes;
	uint64_t payload_bytes;
	uint64_t unmatched;
	uint64_t unfinished;
	uint64_t split;
	uint64_t untimed;
	uint64_t utf8_replaced;
	uint64_t untyped;
	uint64_t trailing;
	uint64_t fields_cut;
	uint64_t lost;
	int no_room;
};

#ifdef __cplusplus
}
#endif

#endif /* EHDECODE_TRACE_H */
