/* SPDX-License-Identifier: MIT */
/*
 * ehdecode/event.h - a decoded event: the one model every reader of
 * libehdecode produces and every writer consumes
 *
 *	const struct ehd_event *ev;
 *
 *	while (ehd_reader_next(r, &ev) > 0) {
 *		printf("%.*s:%.*s\n", (int)ev->provider_len, ev->provider,
 *		       (int)ev->name_len, ev->name);
 *		if (ehd_event_fields(ev, en) == 0)
 *			while (ehd_enum_next(en) > EHD_STATE_BEFORE_FIRST)
 *				... ehd_enum_item(en) ...
 *	}
 *
 * An event has three parts:
 *  - identity: provider, event name, tracepoint name and, for EventHeader
 *    events, level, keyword, id, version, opcode, tag and activity ids;
 *  - context: time, cpu, pid, tid and the callchain, each when the source
 *    recorded it (see @context);
 *  - fields, walked as a tree with an enumerator (ehd_event_fields()).
 *    EventHeader fields come as they were written; the fields of a classic
 *    tracepoint come from its tracefs format, typed as libehdecode renders
 *    them (see ehd_event_fields()).
 *
 * Strings are not NUL-terminated unless said; everything an event points
 * to belongs to the reader and stays valid until its next call.
 */
#ifndef EHDECODE_EVENT_H
#define EHDECODE_EVENT_H

#include <stddef.h>
#include <stdint.h>

#include <ehdecode/common.h>
#include <ehdecode/enumerator.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What kind of data an event carries. */
enum ehd_event_kind {
	EHD_EVENT_EVENTHEADER = 1,	/* an EventHeader event */
	EHD_EVENT_TRACEFS = 2,		/* a classic tracepoint with a format */
	EHD_EVENT_RAW = 3,		/* bytes of unknown layout */
	EHD_EVENT_NETTRACE = 4,		/* typed by nettrace metadata */
	EHD_EVENT_SAMPLE = 5,		/* a weighted stack: @value */
	EHD_EVENT_SYSTEM = 6,		/* a process or mapping: @system */
	EHD_EVENT_HEPH = 7,		/* a Heph trace event packet: @data */
};

/*
 * Events of kind EHD_EVENT_HEPH come from Heph traces (docs/heph.md): the
 * provider and name are the description split at its first ':' (no ':':
 * an empty provider), @pid the stream id, @tid the low 32 bits of the
 * substream id, @time the start time (UTC when the trace has an epoch),
 * @data the whole packet (big-endian). Their fields (ehd_event_fields())
 * are the attributes, then "duration_ns" (end - start) and, when the
 * substream id does not fit in @tid, "substream_id".
 */

/*
 * Events of kind EHD_EVENT_SAMPLE and EHD_EVENT_SYSTEM come from perf
 * input read with EHD_READER_SYSTEM, named as PerfView's universal
 * providers name them (docs/system-traces.md):
 *  - provider "Universal.Events": "cpu", a CPU sample (@value 1), and
 *    "cswitch", a thread switched in (@tid) after @value ns off the CPU,
 *    with the stack where it had left it (from sched:sched_switch);
 *  - provider "Universal.System": "ExistingProcess" (there at the start,
 *    or renamed by exec), "ProcessCreate", "ProcessExit", "ProcessMapping"
 *    (an executable mapping; after a ProcessCreate, one for each mapping
 *    the new process has from its parent). Their pid is @pid.
 * Their fields (ehd_event_fields()) are: Value; NamespaceId and Name;
 * none; Id, ProcessId, StartAddress, EndAddress, FileOffset, FileName and
 * BuildId (when known).
 */
enum ehd_system_kind {
	EHD_SYSTEM_EXISTING_PROCESS = 0,
	EHD_SYSTEM_PROCESS_CREATE = 1,
	EHD_SYSTEM_PROCESS_EXIT = 2,
	EHD_SYSTEM_MAPPING = 3,
};

/**
 * struct ehd_system - a process or mapping change
 * @kind: enum ehd_system_kind
 * @pid: the process
 * @name: the process name (EXISTING_PROCESS, PROCESS_CREATE), NUL-terminated
 * @mapping_id: MAPPING: a number no other mapping of the input has (a
 *	forked process's copy of its parent's mapping keeps the parent's)
 * @start: MAPPING: first address
 * @end: MAPPING: address after the last
 * @file_offset: MAPPING: offset in the file of @start
 * @file_name: MAPPING: the file ("//anon", "[vdso]" ... for others)
 * @build_id: MAPPING: the file's GNU build id in lower-case hex,
 *	NUL-terminated (from the record, else read from the file on this
 *	machine), or NULL when unknown
 * @has_segment: MAPPING: @segment_vaddr and @segment_offset are known
 * @segment_vaddr, @segment_offset: MAPPING: the p_vaddr and p_offset of
 *	the file's loadable segment the mapping begins in, read from the file
 *	on this machine (PerfView's symbol lookup by build id takes them)
 * @ns_pid: EXISTING_PROCESS, PROCESS_CREATE: the process's id in its own
 *	pid namespace (a container's), known while recording; else @pid
 * @ns_name: EXISTING_PROCESS, PROCESS_CREATE: "pid:[INODE]", its pid
 *	namespace, when that is not the recorder's (known while recording);
 *	else ""
 */
struct ehd_system {
	int kind;
	uint32_t pid;
	const char *name;
	uint64_t mapping_id;
	uint64_t start;
	uint64_t end;
	uint64_t file_offset;
	const char *file_name;
	const char *build_id;
	uint32_t ns_pid;
	const char *ns_name;
	int has_segment;
	uint64_t segment_vaddr;
	uint64_t segment_offset;
};

/* ehd_event.context: which context members are valid. */
#define EHD_CTX_TIME		0x1u	/* @time */
#define EHD_CTX_TIME_UTC	0x2u	/* @time is ns since 1970 UTC */
#define EHD_CTX_CPU		0x4u	/* @cpu */
#define EHD_CTX_PID		0x8u	/* @pid and @tid */
#define EHD_CTX_CALLCHAIN	0x10u	/* @callchain (may be empty) */

struct tep_event;
struct ehd__event_internal;

/**
 * struct ehd_event - one decoded event
 * @kind: enum ehd_event_kind
 * @provider: EventHeader: the provider (the tracepoint name before its
 *	last '_'); classic tracepoint: its system ("sched"); may be empty
 * @provider_len: its length
 * @name: EventHeader: the event name up to its first ';'; classic: the
 *	tracepoint's name ("sched_switch")
 * @name_len: its length
 * @tracepoint: the tracepoint without its system ("MyProv_L4K1",
 *	"sched_switch"); empty when unknown
 * @tracepoint_len: its length
 * @eh: EventHeader identity (header, keyword, options, activity ids, the
 *	full name with attributes); NULL for other kinds
 * @level, @keyword, @id, @version, @opcode, @tag: copies of the
 *	EventHeader values (0 for other kinds)
 * @activity_id: 16 bytes, or NULL
 * @related_id: 16 bytes, or NULL
 * @context: EHD_CTX_* bits saying which of the following are set
 * @time: ns; since 1970 UTC with EHD_CTX_TIME_UTC, else the source's
 *	clock (perf: the clock of the recording)
 * @cpu, @pid, @tid: where it happened
 * @comm: the thread's name when the input names it (perf's COMM records,
 *	nettrace thread rows), else NULL
 * @process: the name of the process (of its thread @pid), or NULL
 * @callchain: instruction pointers, innermost first (perf's context
 *	markers included, as recorded)
 * @callchain_count: number of them
 * @data: EventHeader: the event from its flags byte; other kinds: the
 *	whole record (common fields first)
 * @size: bytes at @data
 * @record: the tracepoint record as recorded (common fields first), NULL
 *	when the source has none (interceptor captures)
 * @record_size: bytes at @record
 * @tep_event: the tracefs format of a classic tracepoint (libtraceevent's
 *	type), else NULL
 * @long_size: size of a C long where the event was recorded (4 or 8)
 * @big_endian: the record is big-endian
 * @source_offset: where the event was found in its input (file offset
 *	of its record; of a compressed record, that record's offset)
 * @decode_error: 0, or for an event of an EventHeader tracepoint whose
 *	data are not a valid EventHeader event, why (a negative errno); the
 *	event is then given as kind EHD_EVENT_TRACEFS (or EHD_EVENT_RAW)
 * @decode_reason: with @decode_error, the reason
 * @decode_offset: with @decode_error, the offset in the EventHeader data
 * @internal: libehdecode's own (what the reader already worked out)
 * @value: kind EHD_EVENT_SAMPLE: the weight (see above)
 * @system: kind EHD_EVENT_SYSTEM: what changed
 */
struct ehd_event {
	enum ehd_event_kind kind;
	const char *provider;
	size_t provider_len;
	const char *name;
	size_t name_len;
	const char *tracepoint;
	size_t tracepoint_len;
	const struct ehd_event_info *eh;
	uint8_t level;
	uint8_t version;
	uint8_t opcode;
	uint16_t id;
	uint16_t tag;
	uint64_t keyword;
	const uint8_t *activity_id;
	const uint8_t *related_id;

	unsigned int context;
	uint64_t time;
	uint32_t cpu;
	uint32_t pid;
	uint32_t tid;
	const char *comm;
	const char *process;
	const uint64_t *callchain;
	size_t callchain_count;

	const void *data;
	size_t size;
	const void *record;
	size_t record_size;
	struct tep_event *tep_event;
	uint8_t long_size;
	uint8_t big_endian;
	uint64_t source_offset;
	int decode_error;
	const char *decode_reason;
	uint64_t decode_offset;
	const struct ehd__event_internal *internal;
	uint64_t value;
	const struct ehd_system *system;
};

/* ehd_frame.kind */
#define EHD_FRAME_USER		1	/* an address in a process */
#define EHD_FRAME_KERNEL	2	/* an address in the kernel */

/**
 * struct ehd_frame - one address of a stack, attributed
 * @ip: the address
 * @kind: EHD_FRAME_*
 * @module: the mapped file ("[kernel.kallsyms]" for the kernel), or NULL
 *	when no mapping holds @ip
 * @offset: @ip in the numbering of the module's ELF file (what addr2line
 *	takes); for the kernel, @ip
 * @symbol: the function, or NULL when unknown
 * @symbol_offset: @ip - the function's start
 * @symbol_start: the function's first address in the process (for
 *	@symbol), the process numbering of @ip
 * @symbol_end: the address after its last (@symbol_start when its size
 *	is unknown)
 * @mapping_id: the ehd_system.mapping_id of the mapping, 0 for none (and
 *	for the kernel)
 */
struct ehd_frame {
	uint64_t ip;
	int kind;
	const char *module;
	uint64_t offset;
	const char *symbol;
	uint64_t symbol_offset;
	uint64_t symbol_start;
	uint64_t symbol_end;
	uint64_t mapping_id;
};

/**
 * ehd_event_frames() - the addresses of an event's stack, attributed to
 * files and functions
 * @ev: an event from a perf input read with EHD_READER_SYSTEM, or from a
 *	nettrace file (attributed by its ProcessMapping and ProcessSymbol
 *	events); others have no mappings: every frame then has @module NULL
 * @frames: gets up to @max frames, innermost first; perf's context
 *	markers are left out
 * @max: room in @frames
 *
 * Mappings are those of the event's process at its time (perf's MMAP and
 * MMAP2 records, /proc maps synthesized at the start); function names
 * come from the ELF symbol tables of the mapped files on this machine
 * (libelf: a file's .symtab, else its separate debug file found by build
 * id or .gnu_debuglink, else its .dynsym; C++ and Rust names demangled
 * unless EHD_READER_RAW_NAMES), for code in anonymous memory from the
 * perf map of the process's JIT (/tmp/perf-PID.map), for the kernel from
 * /proc/kallsyms, or for nettrace first from the file's ProcessSymbol
 * events. Names stay valid while the reader lives.
 *
 * Return: the number of frames (at most @max; a longer stack is cut).
 */
EHD_API int ehd_event_frames(const struct ehd_event *ev,
			     struct ehd_frame *frames, size_t max);

/* ehd_event_fields() flags. */
#define EHD_FIELDS_COMMON	0x1u	/* classic: include common_* fields */

/**
 * ehd_event_fields() - start an enumerator on the fields of an event
 * @ev: the event
 * @en: an enumerator (see ehdecode/enumerator.h)
 * @flags: EHD_FIELDS_*
 *
 * EventHeader events are walked as written. A classic tracepoint's fields
 * are typed from their C declaration: integers as VALUE8..64 with format
 * UNSIGNED_INT or SIGNED_INT by the format's "signed:", pointers,
 * "unsigned long" and typedefs of unknown width (pid_t ...) as HEX_INT,
 * char arrays as STRING_LENGTH16_CHAR8/STRING8 (up to the first NUL),
 * structs and odd-sized fields as BINARY/HEX_BYTES, "[N]" arrays as fixed
 * arrays and __data_loc/__rel_loc ones as variable arrays. A field whose
 * bytes lie outside the record comes as an empty BINARY with format
 * HEX_INT, which renders as null. An event of kind EHD_EVENT_RAW has one
 * field, "raw", its bytes.
 *
 * Return: 0, or a negative errno with details from ehd_enum_error().
 */
EHD_API int ehd_event_fields(const struct ehd_event *ev, struct ehd_enum *en,
			     unsigned int flags);

#ifdef __cplusplus
}
#endif

#endif /* EHDECODE_EVENT_H */
