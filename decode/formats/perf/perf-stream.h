/* SPDX-License-Identifier: MIT */
/*
 * perf-stream.h - perf.data records in pipe mode, made by a live session
 * (private to libehdecode)
 *
 * A live session (session.c) gives out what it collects as the stream
 * "perf record -o -" writes: the 16-byte pipe header, then records. These
 * functions append the records that are not copied from the kernel's
 * rings: event descriptions, the tracepoint formats, what the machine is,
 * the threads that exist at the start, and round ends. perf's own reader
 * ("perf script -i FILE") and libehdecode's (perf-file.c) read the result.
 *
 *	struct ehd_buf b = EHD_BUF_INIT;
 *
 *	ehd__ps_pipe_header(&b);
 *	ehd__ps_attr(&b, &attr, ids, nids);
 *	ehd__ps_event_name(&b, ids[0], "user_events:MyProvider_L4K1");
 *	err = ehd__ps_tracing_data(&b, tps, ntps, why, sizeof(why));
 *	ehd__ps_features(&b, &machine);
 *	ehd__ps_threads(&b, &sid, false, NULL, 0);
 *	... records from the rings ...
 *	ehd__ps_finished_round(&b);
 *
 * Records are written in host byte order, 8-byte aligned and padded, as
 * the kernel writes them (perf leaves its HEADER_FEATURE records unpadded;
 * both readers ignore the padding). Appending to an ehd_buf never fails
 * visibly: on allocation failure the buffer's err is set (see ehd-buf.h),
 * and a record too large for its u16 header.size (an attr with more than
 * about 8000 ids, a name of 64 KiB) is left out with err set to -E2BIG.
 * A record is appended whole or not at all.
 */
#ifndef EHD_PERF_STREAM_H
#define EHD_PERF_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/perf_event.h>

#include "core/ehd-buf.h"

/**
 * ehd__ps_pipe_header() - the pipe-mode file header: "PERFILE2" (as a
 * host-order u64, which gives readers the byte order) and the size 16
 * @b: the stream
 */
void ehd__ps_pipe_header(struct ehd_buf *b);

/**
 * ehd__ps_attr() - a HEADER_ATTR record: an event and its sample ids
 * @b: the stream
 * @attr: the attr as given to perf_event_open(); attr->size bytes are
 *	written (0 or less than PERF_ATTR_SIZE_VER0: 64; more than
 *	sizeof(*attr): sizeof(*attr)), with that size in the copy, since
 *	readers find the ids after attr.size bytes
 * @ids: the ids the kernel gave (PERF_EVENT_IOC_ID), one per CPU
 * @nids: how many
 *
 * perf reads the tracepoint format of an event when it reads a
 * HEADER_TRACING_DATA record: the attrs of tracepoints go before it (see
 * ehd__ps_tracing_data()).
 */
void ehd__ps_attr(struct ehd_buf *b, const struct perf_event_attr *attr,
		  const uint64_t *ids, size_t nids);

/**
 * ehd__ps_event_name() - an EVENT_UPDATE record of type NAME
 * (PERF_EVENT_UPDATE__NAME, 2): u64 type, u64 id, the name NUL-padded
 * @b: the stream
 * @id: one sample id of the event (after its HEADER_ATTR)
 * @name: its name, "system:event" for a tracepoint
 */
void ehd__ps_event_name(struct ehd_buf *b, uint64_t id, const char *name);

/* struct ehd__ps_tracepoint - a tracepoint whose format goes in */
struct ehd__ps_tracepoint {
	const char *system;	/* "user_events", "sched" */
	const char *event;	/* "MyProvider_L4K1", "sched_switch" */
};

/**
 * ehd__ps_tracing_data() - a HEADER_TRACING_DATA record and the data
 * after it, as perf writes them (version 0.6, this machine's byte order,
 * long and page size): header_page, header_event, the formats of the
 * "ftrace" system (usually none), the format files of the other @tps
 * grouped by system, empty kallsyms and printk, and saved_cmdlines
 * @b: the stream
 * @tps: the tracepoints, read from the tracefs that libtracefs finds; a
 *	repeated one is written once
 * @n: how many
 * @why: gets the reason on failure ("cannot read tracefs
 *	events/sched/sched_switch/format: No such file or directory")
 * @why_size: its size
 *
 * The record is {header, u32 size, u32 padding}, 16 bytes; the data
 * follow it outside the record, then zeros up to a multiple of 8 bytes,
 * and size counts those zeros (perf checks that it does).
 *
 * A later record may repeat the formats with more tracepoints (a session
 * that found new ones). libehdecode's reader adds the formats it did not
 * have. perf cannot read it: perf script stops there with "tracing data
 * size mismatch" (perf 6.1; upstream's trace-event-read.c still counts
 * the bytes of both records), having given out only what it had sorted
 * before.
 *
 * Neither can perf print the fields of a tracepoint whose HEADER_ATTR
 * came after the (first) HEADER_TRACING_DATA: perf script crashes on
 * its samples, even with the format in that record; only "perf script
 * -F comm,tid,time,event" (no "trace" field) shows them.
 *
 * Return: 0, or a negative errno with @why set (-EINVAL for a system or
 * event name that is not one path component, the errno of a file that
 * could not be read, -ENOMEM); @b is unchanged then.
 */
int ehd__ps_tracing_data(struct ehd_buf *b,
			 const struct ehd__ps_tracepoint *tps, size_t n,
			 char *why, size_t why_size);

/*
 * struct ehd__ps_machine - what goes in the HEADER_FEATURE records
 * @cmdline: the recording command line words, NULL-terminated (NULL: no
 *	CMDLINE record); words past 64 KiB are left out
 * @clockid: the clock of the sample times (CLOCK_MONOTONIC, ...)
 * @clock_ns: a reading of @clockid ...
 * @wall_ns: ... and of CLOCK_REALTIME taken at the same moment, in ns
 * @version: the recorder's version string ("ehrecord 0.1"; NULL:
 *	"libehdecode" and the package version)
 */
struct ehd__ps_machine {
	const char *const *cmdline;
	int clockid;
	uint64_t clock_ns;
	uint64_t wall_ns;
	const char *version;
};

/**
 * ehd__ps_features() - HEADER_FEATURE records: HOSTNAME, OSRELEASE,
 * VERSION, ARCH (from uname()), NRCPUS (sysconf), CPUDESC (/proc/cpuinfo
 * "model name", when there is one), CMDLINE, CLOCKID and CLOCK_DATA, then
 * the LAST_FEATURE end marker
 * @b: the stream
 * @m: the values that do not come from the machine
 *
 * Each record is {header, u64 feature, the section as in a normal-mode
 * file}: strings as u32 length (NUL included, a multiple of 64) and the
 * string NUL-padded; NRCPUS u32 available (_SC_NPROCESSORS_CONF), u32
 * online; CMDLINE u32 count and strings; CLOCKID the u64 resolution of
 * @m->clockid in ns, as perf writes it (clock_getres(); left out when
 * that fails) - not the clock's id, which is in CLOCK_DATA: u32 version
 * 1, u32 clockid, u64 @m->wall_ns, u64 @m->clock_ns.
 */
void ehd__ps_features(struct ehd_buf *b, const struct ehd__ps_machine *m);

/*
 * struct ehd__ps_sample_id - the sample_id trailer of synthesized records
 * @sample_type: the attr's sample_type (the attr has sample_id_all); of
 *	its bits TID, TIME, ID, STREAM_ID, CPU and IDENTIFIER are written
 * @id: the id written for ID, STREAM_ID and IDENTIFIER
 * @time: the time written for TIME (before the first sample: perf gives
 *	a sample the comm its thread had at the sample's time)
 *
 * TID is the thread's own pid and tid; CPU is 0, as perf writes it.
 */
struct ehd__ps_sample_id {
	uint64_t sample_type;
	uint64_t id;
	uint64_t time;
};

/**
 * ehd__ps_threads() - a PERF_RECORD_COMM for every thread in /proc (its
 * pid, tid and comm, /proc/PID/task/TID/comm cut to 15 characters as the
 * kernel's COMM records are), as "perf record" synthesizes them at the
 * start; with @maps, after each process's COMMs a PERF_RECORD_MMAP2 for
 * each of its executable mappings (/proc/PID/maps: start, length, file
 * offset, device, inode, protection, file name; misc
 * PERF_RECORD_MISC_USER). Threads and processes that vanish or cannot be
 * read are left out.
 * @b: the stream
 * @sid: the trailer to write after each
 * @maps: also the mappings
 * @pids: only these processes (NULL: every process)
 * @npids: how many
 *
 * Return: the number of threads (COMM records appended, unless @b failed).
 */
size_t ehd__ps_threads(struct ehd_buf *b, const struct ehd__ps_sample_id *sid,
		       bool maps, const pid_t *pids, size_t npids);

/**
 * ehd__ps_finished_round() - a FINISHED_ROUND record: readers may sort
 * and give out the samples up to the latest time seen before the
 * previous one
 * @b: the stream
 */
void ehd__ps_finished_round(struct ehd_buf *b);

/**
 * ehd__perf_normal_finish() - end a normal-mode perf.data that a session
 * wrote: a 104-byte header left blank, then @data_size bytes of records
 * (the data section), up to where @out_fd's offset is now
 * @out_fd: the file
 * @meta: the records that describe the session, as in a pipe-mode stream
 *	(HEADER_ATTR, EVENT_UPDATE, HEADER_FEATURE, HEADER_TRACING_DATA and
 *	its data); the last tracing data has every format
 * @len: their bytes
 * @data_size: bytes of the data section
 * @why: gets the reason on failure
 * @why_size: its size
 *
 * The feature sections (from @meta, and EVENT_DESC with every event's
 * name) go after the data, then the attrs and ids, and the header at the
 * start: the layout ehd_session_perf_file() writes (perf-normal.c).
 *
 * Return: 0, or a negative errno with @why set.
 */
int ehd__perf_normal_finish(int out_fd, const void *meta, size_t len,
			    uint64_t data_size, char *why, size_t why_size);

#endif /* EHD_PERF_STREAM_H */
