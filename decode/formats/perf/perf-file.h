/* SPDX-License-Identifier: MIT */
/*
 * perf-file.h - streaming perf.data reader of libehdecode (private)
 *
 * Reads the files that "perf record" writes, in normal mode (a seekable
 * file with a header, an attrs section, a data section and feature
 * sections after it) and in pipe mode (a 16-byte header followed by
 * records only, as written with "-o -"), in either byte order. The data
 * are streamed through a fixed read buffer: memory does not grow with
 * the number of records, and pipe mode works on a pipe.
 *
 * Usage:
 *
 *	struct ehd__perf_file *f;
 *	const struct ehd__perf_record *rec;
 *	uint64_t off;
 *	int r;
 *
 *	r = ehd__perf_new(&f);
 *	if (!r)
 *		r = ehd__perf_open(f, path);
 *	while (r >= 0 && (r = ehd__perf_next(f, &rec)) > 0)
 *		if (rec->type == PERF_RECORD_SAMPLE)
 *			use(&rec->sample);
 *	if (r < 0)
 *		report(r, ehd__perf_error(f, &off), off);
 *	ehd__perf_free(f);
 *
 * Records come back in file order; PERF_RECORD_FINISHED_ROUND is
 * returned like any other record, so that a caller that wants time
 * order can sort what it got since the previous round. Records inside
 * PERF_RECORD_COMPRESSED (perf record -z) come back decompressed; the
 * compressed records themselves are not returned. Metadata records
 * (attrs, features, tracing data, event updates) are applied to the
 * session and then returned too, as opaque records.
 *
 * Every function that can fail returns 0 (or a count) on success and a
 * negative errno on failure; the failure is kept with a reason and the
 * file offset where it was found (ehd__perf_error()), and a failed
 * ehd__perf_next() keeps returning the same error. The errno values
 * used: -EBADMSG damaged or truncated input, -ENOTSUP a valid file this
 * reader cannot read, -EFBIG a size beyond the limits, -ENOMEM, -EINVAL
 * wrong use, and the errno of a failed open() or read().
 *
 * Pointers returned (records, samples, descriptions, strings) stay valid
 * until the next ehd__perf_next() or ehd__perf_free(), whichever comes
 * first; event descriptions stay valid until ehd__perf_free().
 */
#ifndef EHD_PERF_FILE_H
#define EHD_PERF_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>
#include <linux/perf_event.h>

struct tep_handle;
struct tep_event;
struct ehd__perf_file;

/* Feature section indexes (perf's HEADER_* numbers). */
enum ehd__perf_feature {
	EHD__PERF_FEAT_TRACING_DATA = 1,
	EHD__PERF_FEAT_BUILD_ID = 2,
	EHD__PERF_FEAT_HOSTNAME = 3,
	EHD__PERF_FEAT_OSRELEASE = 4,
	EHD__PERF_FEAT_VERSION = 5,
	EHD__PERF_FEAT_ARCH = 6,
	EHD__PERF_FEAT_NRCPUS = 7,
	EHD__PERF_FEAT_CPUDESC = 8,
	EHD__PERF_FEAT_CPUID = 9,
	EHD__PERF_FEAT_TOTAL_MEM = 10,
	EHD__PERF_FEAT_CMDLINE = 11,
	EHD__PERF_FEAT_EVENT_DESC = 12,
	EHD__PERF_FEAT_CPU_TOPOLOGY = 13,
	EHD__PERF_FEAT_NUMA_TOPOLOGY = 14,
	EHD__PERF_FEAT_BRANCH_STACK = 15,
	EHD__PERF_FEAT_PMU_MAPPINGS = 16,
	EHD__PERF_FEAT_GROUP_DESC = 17,
	EHD__PERF_FEAT_AUXTRACE = 18,
	EHD__PERF_FEAT_STAT = 19,
	EHD__PERF_FEAT_CACHE = 20,
	EHD__PERF_FEAT_SAMPLE_TIME = 21,
	EHD__PERF_FEAT_MEM_TOPOLOGY = 22,
	EHD__PERF_FEAT_CLOCKID = 23,
	EHD__PERF_FEAT_DIR_FORMAT = 24,
	EHD__PERF_FEAT_BPF_PROG_INFO = 25,
	EHD__PERF_FEAT_BPF_BTF = 26,
	EHD__PERF_FEAT_COMPRESSED = 27,
	EHD__PERF_FEAT_CPU_PMU_CAPS = 28,
	EHD__PERF_FEAT_CLOCK_DATA = 29,
	EHD__PERF_FEAT_HYBRID_TOPOLOGY = 30,
	EHD__PERF_FEAT_PMU_CAPS = 31,
	EHD__PERF_FEAT_LAST = 32,	/* pipe mode: "end of features" */
	EHD__PERF_FEAT_BITS = 256,
};

/* Record types that perf itself writes (not in <linux/perf_event.h>). */
enum ehd__perf_user_record {
	EHD__PERF_RECORD_HEADER_ATTR = 64,
	EHD__PERF_RECORD_HEADER_EVENT_TYPE = 65,
	EHD__PERF_RECORD_HEADER_TRACING_DATA = 66,
	EHD__PERF_RECORD_HEADER_BUILD_ID = 67,
	EHD__PERF_RECORD_FINISHED_ROUND = 68,
	EHD__PERF_RECORD_ID_INDEX = 69,
	EHD__PERF_RECORD_AUXTRACE_INFO = 70,
	EHD__PERF_RECORD_AUXTRACE = 71,
	EHD__PERF_RECORD_AUXTRACE_ERROR = 72,
	EHD__PERF_RECORD_THREAD_MAP = 73,
	EHD__PERF_RECORD_CPU_MAP = 74,
	EHD__PERF_RECORD_STAT_CONFIG = 75,
	EHD__PERF_RECORD_STAT = 76,
	EHD__PERF_RECORD_STAT_ROUND = 77,
	EHD__PERF_RECORD_EVENT_UPDATE = 78,
	EHD__PERF_RECORD_TIME_CONV = 79,
	EHD__PERF_RECORD_HEADER_FEATURE = 80,
	EHD__PERF_RECORD_COMPRESSED = 81,
	EHD__PERF_RECORD_FINISHED_INIT = 82,
	EHD__PERF_RECORD_COMPRESSED2 = 83,
};

#define EHD__PERF_CLOCKID_UNKNOWN 0xFFFFFFFFu

/*
 * struct ehd__perf_layout - where the fixed fields of a sample are, worked
 * out once per event (by the reader, when first needed) when they all come
 * before the call chain and the file is in the host's byte order (the
 * usual case): a sample is then read by loading them where they are
 * @state: 0 not worked out yet, 1 fixed places, -1 not
 * @ip, @tid, @time, @addr, @id, @stream_id, @cpu, @period: the offset of
 *	each from the sample's first field, plus one; 0 when absent
 * @fixed: the bytes before the call chain or raw data
 */
struct ehd__perf_layout {
	int8_t state;
	uint8_t ip, tid, time, addr, id, stream_id, cpu, period;
	uint16_t fixed;
};

/*
 * struct ehd__perf_event_desc - one event (perf_event_attr) of the session
 * @attr: the attr in host byte order (bit fields included); fields past
 *	the size written in the file are 0, bytes past sizeof(attr) are
 *	dropped
 * @attr_size: attr.size as written in the file (0 there means 64)
 * @name: "system:event" for a tracepoint, otherwise perf's event name
 *	("dummy:HG"); "" when unknown. From EVENT_DESC, else from an
 *	EVENT_UPDATE record, else made from the tracepoint format
 * @ids: the sample ids that select this event
 * @ids_count: number of @ids
 * @tep_event: the tracefs format of a tracepoint (attr.type ==
 *	PERF_TYPE_TRACEPOINT and attr.config == its ID), parsed by
 *	libtraceevent from TRACING_DATA; NULL otherwise
 * @tp_name: the tracepoint name without its system ("TestProviderC_L1K1"
 *	for "user_events:TestProviderC_L1K1"); NULL without @tep_event
 * @tp_name_len: its length
 * @eh_offset: for an EventHeader tracepoint (its first non-common field
 *	is named "eventheader_flags") the offset in the raw data where the
 *	EventHeader begins; -1 otherwise
 * @index: its place in the order the attrs came (ehd__perf_desc(f, @index))
 * @lay: where its samples' fields are (the reader's)
 */
struct ehd__perf_event_desc {
	struct perf_event_attr attr;
	uint32_t attr_size;
	const char *name;
	const uint64_t *ids;
	size_t ids_count;
	struct tep_event *tep_event;
	const char *tp_name;
	size_t tp_name_len;
	int eh_offset;
	size_t index;
	struct ehd__perf_layout lay;
};

/*
 * struct ehd__perf_sample - a parsed PERF_RECORD_SAMPLE, or the sample_id
 * fields that follow another kernel record when the attr has sample_id_all
 * @fields: the PERF_SAMPLE_* bits that were present (and parsed); the
 *	other members are 0/NULL. Of a non-sample record only TID, TIME, ID,
 *	STREAM_ID, CPU and IDENTIFIER can be present
 * @read: the PERF_SAMPLE_READ block as host-order u64s, laid out as
 *	attr.read_format says (with PERF_FORMAT_GROUP: nr first)
 * @read_count: number of u64s at @read
 * @callchain: PERF_SAMPLE_CALLCHAIN addresses in host order
 * @raw: PERF_SAMPLE_RAW data, unchanged (the tracepoint's own byte order)
 * @desc: the event the sample belongs to (found by its id; with no id
 *	field, or with a single event, the first event); NULL when the id
 *	matches no event
 */
struct ehd__perf_sample {
	uint64_t fields;
	uint64_t ip;
	uint32_t pid;
	uint32_t tid;
	uint64_t time;
	uint64_t addr;
	uint64_t id;
	uint64_t stream_id;
	uint32_t cpu;
	uint64_t period;
	const uint64_t *read;
	uint32_t read_count;
	const uint64_t *callchain;
	uint64_t callchain_count;
	const void *raw;
	uint32_t raw_size;
	const struct ehd__perf_event_desc *desc;
};

/* ehd__perf_record.flags */
#define EHD__PERF_REC_DECOMPRESSED 0x1	/* came out of a COMPRESSED record */
/*
 * @data is where a view source (ehd__perf_open_view()) has it, and stays
 * there after the next call, until the source's owner releases it.
 */
#define EHD__PERF_REC_BORROWED 0x2

/*
 * struct ehd__perf_record - one record of the data stream
 * @type: PERF_RECORD_* or EHD__PERF_RECORD_*
 * @misc: header.misc
 * @size: bytes at @data, header included (header.size)
 * @flags: EHD__PERF_REC_*
 * @offset: file offset of the record; for a decompressed record, of the
 *	compressed record its first byte came from
 * @data: the record as in the file (file byte order), 8-byte aligned. The
 *	data that follow HEADER_TRACING_DATA and AUXTRACE records are not
 *	included (they are consumed or skipped)
 * @has_sample: @sample is valid: a PERF_RECORD_SAMPLE, or a kernel record
 *	with sample_id fields
 * @sample: the parsed sample fields
 */
struct ehd__perf_record {
	uint32_t type;
	uint16_t misc;
	uint16_t flags;
	uint32_t size;
	uint64_t offset;
	const void *data;
	bool has_sample;
	struct ehd__perf_sample sample;
};

/*
 * struct ehd__perf_session - what the headers say about the recording
 * @big_endian: the file is big-endian
 * @pipe_mode: the file is in pipe mode
 * @clockid: the CLOCKID feature, or EHD__PERF_CLOCKID_UNKNOWN
 * @has_clock_offset: CLOCK_DATA was found
 * @clock_offset: wall_clock_ns - clockid_time_ns of CLOCK_DATA (modulo
 *	2^64): sample time + @clock_offset = ns since 1970 UTC
 * @hostname, @osrelease, @version, @arch, @cpudesc: the string features,
 *	NULL when absent
 * @nr_cpus_avail, @nr_cpus_online: NRCPUS, 0 when absent
 * @cmdline: the CMDLINE words joined with spaces, NULL when absent
 * @tracing_version: TRACING_DATA version ("0.6"), NULL without tracing data
 * @tracing_big_endian, @tracing_long_size, @tracing_page_size: from the
 *	tracing data header
 * @header_page, @header_event, @kallsyms, @printk, @saved_cmdline: the
 *	parts of TRACING_DATA kept as text (not NUL-terminated), with sizes
 * @ftrace_count, @format_count: ftrace and event format files parsed
 * @format_errors: format files libtraceevent did not fully parse (their
 *	events may still be usable)
 */
struct ehd__perf_session {
	bool big_endian;
	bool pipe_mode;
	uint32_t clockid;
	bool has_clock_offset;
	uint64_t clock_offset;
	const char *hostname;
	const char *osrelease;
	const char *version;
	const char *arch;
	const char *cpudesc;
	uint32_t nr_cpus_avail;
	uint32_t nr_cpus_online;
	const char *cmdline;

	const char *tracing_version;
	bool tracing_big_endian;
	uint8_t tracing_long_size;
	uint32_t tracing_page_size;
	const char *header_page;
	size_t header_page_size;
	const char *header_event;
	size_t header_event_size;
	const char *kallsyms;
	size_t kallsyms_size;
	const char *printk;
	size_t printk_size;
	const char *saved_cmdline;
	size_t saved_cmdline_size;
	uint32_t ftrace_count;
	uint32_t format_count;
	uint32_t format_errors;
};

/**
 * ehd__perf_new() - allocate a reader
 * @fp: gets it; then open a file with ehd__perf_open() or
 *	ehd__perf_open_fd()
 *
 * Return: 0 or -ENOMEM.
 */
int ehd__perf_new(struct ehd__perf_file **fp);

/*
 * Options for ehd__perf_set_options().
 * EHD__PERF_OPT_PRINT_FMT: hand libtraceevent the "print fmt:" of each
 *	tracepoint format, for tep_print_event(). Off by default, when the
 *	formats get an empty print fmt (the fields are all there):
 *	libtraceevent 1.7 can crash on a damaged print fmt, so set it only
 *	for files that are trusted.
 */
#define EHD__PERF_OPT_PRINT_FMT 0x1u

/**
 * ehd__perf_set_options() - set EHD__PERF_OPT_* bits
 * @f: the reader, not yet open
 * @options: the bits
 *
 * Return: 0, -EBUSY once a file is open, -EINVAL for unknown bits.
 */
int ehd__perf_set_options(struct ehd__perf_file *f, unsigned int options);

/**
 * ehd__perf_open() - open a perf.data file
 * @f: the reader
 * @path: the file; "-" is standard input, which must be in pipe mode
 *
 * Reads the headers: of a normal-mode file the attrs and the feature
 * sections, so that event descriptions and session info are complete at
 * once; in pipe mode they come with the records.
 *
 * Return: 0, -EBUSY if a file is open already, or the failure (see
 * ehd__perf_error()).
 */
int ehd__perf_open(struct ehd__perf_file *f, const char *path);

/**
 * ehd__perf_open_fd() - like ehd__perf_open(), on an open descriptor
 * @f: the reader
 * @fd: stays the caller's (it is not closed). A regular file is read
 *	with pread() from offset 0; anything else with read() from where
 *	it is, and must be in pipe mode
 * @name: for messages; may be NULL
 *
 * Return: as ehd__perf_open().
 */
int ehd__perf_open_fd(struct ehd__perf_file *f, int fd, const char *name);

/**
 * ehd__perf_open_fd_after() - like ehd__perf_open_fd() on a stream of
 * which the first bytes have been read already
 * @f: the reader
 * @fd: the stream (pipe mode only); stays the caller's
 * @name: for messages; may be NULL
 * @pre: the bytes read from @fd already
 * @npre: how many (at most 64 KiB)
 *
 * Return: as ehd__perf_open().
 */
int ehd__perf_open_fd_after(struct ehd__perf_file *f, int fd, const char *name,
			    const void *pre, size_t npre);

/*
 * ehd__perf_source_fn - where a live stream's bytes come from
 * @ctx: the context given to ehd__perf_open_source()
 * @buf: gets bytes
 * @n: at most this many
 *
 * Return: the number of bytes, 0 at the end, -EAGAIN when there are none
 * now (only between whole records), or another negative errno.
 */
typedef ssize_t (*ehd__perf_source_fn)(void *ctx, void *buf, size_t n);

/**
 * ehd__perf_open_source() - read a pipe-mode stream from a function
 * @f: the reader
 * @fn: gives the bytes; its -EAGAIN comes out of ehd__perf_next() as is,
 *	and that is no failure: call again later
 * @ctx: for @fn
 * @name: for messages; may be NULL
 *
 * Return: as ehd__perf_open().
 */
int ehd__perf_open_source(struct ehd__perf_file *f, ehd__perf_source_fn fn,
			  void *ctx, const char *name);

/*
 * ehd__perf_view_fn - a live stream read where it is
 * @ctx: the context given to ehd__perf_open_view()
 * @p: gets where the next bytes are (whole records: a record never runs
 *	from one view into the next)
 * @n: gets how many
 *
 * Return: 1 with bytes; 0 at the end; -EAGAIN when there are none now;
 * -ENODATA when the next must be read with the source function (a copy);
 * or another negative errno.
 */
typedef int (*ehd__perf_view_fn)(void *ctx, const void **p, size_t *n);

/**
 * ehd__perf_open_view() - like ehd__perf_open_source(), with the bytes
 * read where @view has them whenever it can: records come with
 * EHD__PERF_REC_BORROWED then, and stay valid until the owner of the
 * views releases them (record offsets are positions in the stream)
 * @f: the reader
 * @view: gives the bytes where they are
 * @fn: reads bytes when @view says -ENODATA
 * @ctx: for both
 * @name: for messages; may be NULL
 *
 * Return: as ehd__perf_open().
 */
int ehd__perf_open_view(struct ehd__perf_file *f, ehd__perf_view_fn view,
			ehd__perf_source_fn fn, void *ctx, const char *name);

/**
 * ehd__perf_position() - the stream position of the next byte to read
 * @f: the reader
 */
uint64_t ehd__perf_position(const struct ehd__perf_file *f);

/**
 * ehd__perf_parse_sample() - parse a copy of a PERF_RECORD_SAMPLE again
 * @f: the reader it came from
 * @rec: the record (header first, file byte order), 8-byte aligned
 * @off: its file offset, for messages
 * @s: gets the sample; its pointers point into @rec or into @f (valid
 *	until the next call on @f)
 *
 * Return: 0 or a negative errno.
 */
int ehd__perf_parse_sample(struct ehd__perf_file *f, const void *rec,
			   uint64_t off, struct ehd__perf_sample *s);

/**
 * ehd__perf_next() - read the next record
 * @f: the reader
 * @rec: gets the record (valid until the next call), NULL when none
 *
 * Return: 1 with a record, 0 at the end of the data, or a negative errno
 * (and the same one again on later calls).
 */
int ehd__perf_next(struct ehd__perf_file *f, const struct ehd__perf_record **rec);

/*
 * struct ehd__perf_lean - the fields of a plain sample
 * @data: the record (header first): where ehd__perf_next_places() gave
 *	it, or a copy
 * @desc: its event
 * @time: its time (its place's)
 *
 * Read by ehd__perf_lean_fields() from @data and @desc:
 * @fields: its event's sample_type (TIME and RAW among them, no CALLCHAIN)
 * @cpu, @pid, @tid: its fields (0 where absent)
 * @raw_off, @raw_size: its raw data, at @data + @raw_off
 */
struct ehd__perf_lean {
	const uint8_t *data;
	const struct ehd__perf_event_desc *desc;
	uint64_t time;
	uint64_t fields;
	uint32_t cpu, pid, tid;
	uint32_t raw_off, raw_size;
};

/*
 * struct ehd__perf_place - where and when a plain sample is, as
 * ehd__perf_next_places() gives it
 * @time: its time
 * @data: the record (header first), @size bytes: valid as ehd__perf_next()'s
 *	are, or until released when @borrowed (see EHD__PERF_REC_BORROWED)
 * @offset: its stream offset
 * @desc: its event
 * @borrowed: where a view (ehd__perf_open_view()) has it
 */
struct ehd__perf_place {
	uint64_t time;
	const uint8_t *data;
	uint64_t offset;
	const struct ehd__perf_event_desc *desc;
	uint32_t size;
	bool borrowed;
};

/**
 * ehd__perf_next_places() - read the plain samples that come next, in one
 * call
 * @f: the reader
 * @out: gets the first, and each next one @stride bytes after the one
 *	before (so that a caller's own entries can hold them)
 * @stride: at least sizeof(*@out)
 * @max: the most to read
 * @max_bytes: the most bytes of records to read
 *
 * A plain sample is one in the host's byte order, whole in the read
 * buffer, of an event whose fields are at fixed places (time and raw
 * data, no call chain), outside compressed data: most of a recording.
 * Each is checked whole, but only its time is read; a reader that holds
 * samples for sorting reads a run of them this way without a call and a
 * copy each, and the rest of one with ehd__perf_lean_fields() when it
 * gives it out. The records of one call are one after the other in the
 * read buffer: copied, they are copied at once. Anything else, or
 * anything wrong with it, is left where it is for ehd__perf_next().
 *
 * Return: how many were read; 0 when the next record is for
 * ehd__perf_next() (or bigger than @max_bytes).
 */
size_t ehd__perf_next_places(struct ehd__perf_file *f,
			     struct ehd__perf_place *out, size_t stride,
			     size_t max, size_t max_bytes);

/**
 * ehd__perf_borrowing() - whether the next records are where a view has
 * them (EHD__PERF_REC_BORROWED), not in the reader's own buffer
 * @f: the reader
 */
bool ehd__perf_borrowing(const struct ehd__perf_file *f);

/* Most held entries a live session's reader makes room for at its start. */
#define EHD__PERF_HELD_RESERVE_MAX (32u << 10)

/**
 * ehd__perf_held_reserve_for() - how many held entries the reader of a
 * live session makes room for at its start (perf-read.c)
 * @ring_bytes: the bytes of all the session's rings
 *
 * Two rounds of records of 256 bytes each, as a power of two from 1,024
 * to EHD__PERF_HELD_RESERVE_MAX: where more come, the entries grow as
 * they would without a reserve.
 */
size_t ehd__perf_held_reserve_for(size_t ring_bytes);

/*
 * The u64 field at @at - 1 of a sample's fields (at @p), as struct
 * ehd__perf_layout places them; 0 when @at is 0 (no such field). @p is in
 * its record, after the record's 8-byte header, which is read (and the
 * value dropped) when @at is 0: without a branch, which under TCG costs
 * more than the load.
 */
static inline uint64_t ehd__perf_at64(const uint8_t *p, uint8_t at)
{
	uint64_t there = -(uint64_t)(at != 0), v;

	/* (p + at - 1, or p - 8: masks, which compilers keep branch-free) */
	memcpy(&v, p - 8 + ((at + 7u) & there), 8);
	return v & there;
}

/**
 * ehd__perf_lean_fields() - the rest of a sample ehd__perf_next_places()
 * gave
 * @l: the sample, its @data and @desc set (@data may be a copy)
 *
 * For a reader that holds samples before it looks at them: what it holds
 * is their place and time, and the fields are read when it gives them out.
 */
static inline void ehd__perf_lean_fields(struct ehd__perf_lean *l)
{
	const struct ehd__perf_layout *lay = &l->desc->lay;
	const uint8_t *p = l->data + 8;
	uint64_t v = ehd__perf_at64(p, lay->tid);
	uint32_t sz;

	memcpy(&sz, p + lay->fixed, 4);
	l->fields = l->desc->attr.sample_type;
	l->cpu = (uint32_t)ehd__perf_at64(p, lay->cpu);
	l->pid = (uint32_t)v;
	l->tid = (uint32_t)(v >> 32);
	l->raw_off = (uint32_t)(8 + lay->fixed + 4);
	l->raw_size = sz;
}

/**
 * ehd__perf_session() - what the headers say
 * @f: the reader
 *
 * Return: the session info; in pipe mode it fills in as features come.
 */
const struct ehd__perf_session *ehd__perf_session(const struct ehd__perf_file *f);

/**
 * ehd__perf_time_to_utc() - a sample time as ns since 1970 UTC
 * @f: the reader
 * @time: a sample time
 *
 * Return: @time + clock_offset, or @time without CLOCK_DATA.
 */
uint64_t ehd__perf_time_to_utc(const struct ehd__perf_file *f, uint64_t time);

/**
 * ehd__perf_tep() - libtraceevent's handle with the TRACING_DATA formats
 * @f: the reader
 *
 * Return: the handle (owned by @f; there is one once a file is open).
 */
struct tep_handle *ehd__perf_tep(const struct ehd__perf_file *f);

/**
 * ehd__perf_desc_count() - number of events (attrs) seen so far
 * @f: the reader
 *
 * Return: the count.
 */
size_t ehd__perf_desc_count(const struct ehd__perf_file *f);

/**
 * ehd__perf_desc() - an event, in the order the attrs came
 * @f: the reader
 * @i: index below ehd__perf_desc_count()
 *
 * Return: the event, or NULL when @i is out of range.
 */
const struct ehd__perf_event_desc *ehd__perf_desc(const struct ehd__perf_file *f,
						  size_t i);

/**
 * ehd__perf_find_desc() - the event of a sample id
 * @f: the reader
 * @id: the id
 *
 * Return: the event, or NULL.
 */
const struct ehd__perf_event_desc *
ehd__perf_find_desc(const struct ehd__perf_file *f, uint64_t id);

/**
 * ehd__perf_feature() - the raw bytes of a feature section
 * @f: the reader
 * @feat: EHD__PERF_FEAT_*
 * @data: gets the bytes, in the file's byte order: of a normal-mode file
 *	the section, in pipe mode the data of the last HEADER_FEATURE record
 *	for @feat
 * @size: gets their size
 *
 * Return: 0, or -ENOENT when the feature is not there.
 */
int ehd__perf_feature(const struct ehd__perf_file *f, unsigned int feat,
		      const void **data, size_t *size);

/**
 * ehd__perf_error() - why the last call failed
 * @f: the reader
 * @offset: gets the file offset where the failure was found (may be NULL)
 *
 * Return: the reason (valid until @f changes), or NULL if nothing failed.
 */
const char *ehd__perf_error(const struct ehd__perf_file *f, uint64_t *offset);

/**
 * ehd__perf_free() - close the file (if the reader opened it) and free
 * @f: the reader; NULL is fine
 */
void ehd__perf_free(struct ehd__perf_file *f);

#endif /* EHD_PERF_FILE_H */
