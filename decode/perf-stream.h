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
 *	ehd__ps_threads(&b, &sid);
 *	... records from the rings ...
 *	ehd__ps_finished_round(&b);
 *
 * Records are written in host byte order, 8-byte aligned and padded, as
 * the kernel writes them. Appending to an ehd_buf never fails visibly: on
 * allocation failure the buffer's err is set (see ehd-buf.h).
 */
#ifndef EHD_PERF_STREAM_H
#define EHD_PERF_STREAM_H

#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

#include "ehd-buf.h"

/* The pipe-mode file header: "PERFILE2" and the header size 16. */
void ehd__ps_pipe_header(struct ehd_buf *b);

/*
 * ehd__ps_attr() - a HEADER_ATTR record: an event and its sample ids
 * @b: the stream
 * @attr: the attr as given to perf_event_open() (attr->size bytes written)
 * @ids: the ids the kernel gave (PERF_EVENT_IOC_ID), one per CPU
 * @nids: how many
 */
void ehd__ps_attr(struct ehd_buf *b, const struct perf_event_attr *attr,
		  const uint64_t *ids, size_t nids);

/*
 * ehd__ps_event_name() - an EVENT_UPDATE record of type NAME
 * @b: the stream
 * @id: one sample id of the event
 * @name: its name, "system:event" for a tracepoint
 */
void ehd__ps_event_name(struct ehd_buf *b, uint64_t id, const char *name);

/* struct ehd__ps_tracepoint - a tracepoint whose format goes in */
struct ehd__ps_tracepoint {
	const char *system;	/* "user_events", "sched" */
	const char *event;	/* "MyProvider_L4K1", "sched_switch" */
};

/*
 * ehd__ps_tracing_data() - a HEADER_TRACING_DATA record and the data
 * after it, as perf writes them (version 0.6, this machine's byte order,
 * long and page size): header_page, header_event, no ftrace formats, the
 * format files of @tps grouped by system, empty kallsyms and printk, and
 * saved_cmdlines
 * @b: the stream
 * @tps: the tracepoints, read from the tracefs that libtracefs finds
 * @n: how many
 * @why: gets the reason on failure (a file that could not be read)
 * @why_size: its size
 *
 * A later record may repeat the formats with more tracepoints (a session
 * that found new ones): perf's reader and libehdecode's take the last.
 *
 * Return: 0, or a negative errno with @why set; @b is unchanged then.
 */
int ehd__ps_tracing_data(struct ehd_buf *b, const struct ehd__ps_tracepoint *tps,
			 size_t n, char *why, size_t why_size);

/*
 * struct ehd__ps_machine - what goes in the HEADER_FEATURE records
 * @cmdline: the recording command line words, NULL-terminated (may be NULL)
 * @clockid: the clock of the sample times (CLOCK_MONOTONIC, ...)
 * @clock_ns: a reading of @clockid ...
 * @wall_ns: ... and of CLOCK_REALTIME taken at the same moment, in ns
 * @version: the recorder's version string ("ehrecord 0.1")
 */
struct ehd__ps_machine {
	const char *const *cmdline;
	int clockid;
	uint64_t clock_ns;
	uint64_t wall_ns;
	const char *version;
};

/*
 * ehd__ps_features() - HEADER_FEATURE records: HOSTNAME, OSRELEASE,
 * VERSION, ARCH (from uname()), NRCPUS (sysconf), CPUDESC (/proc/cpuinfo
 * "model name", when there is one), CMDLINE, CLOCKID and CLOCK_DATA, then
 * the LAST_FEATURE end marker
 * @b: the stream
 * @m: the values that do not come from the machine
 */
void ehd__ps_features(struct ehd_buf *b, const struct ehd__ps_machine *m);

/*
 * struct ehd__ps_sample_id - the sample_id trailer of synthesized records
 * @sample_type: the attr's sample_type (the attr has sample_id_all); of
 *	its bits TID, TIME, ID, STREAM_ID, CPU and IDENTIFIER are written
 * @id: the id written for ID and IDENTIFIER
 * @time: the time written for TIME
 */
struct ehd__ps_sample_id {
	uint64_t sample_type;
	uint64_t id;
	uint64_t time;
};

/*
 * ehd__ps_threads() - a PERF_RECORD_COMM for every thread in /proc (its
 * pid, tid and comm), as "perf record" synthesizes them at the start.
 * Threads that vanish while /proc is read are left out.
 * @b: the stream
 * @sid: the trailer to write after each
 *
 * Return: the number of threads.
 */
size_t ehd__ps_threads(struct ehd_buf *b, const struct ehd__ps_sample_id *sid);

/* A FINISHED_ROUND record: what came before may be sorted and given out. */
void ehd__ps_finished_round(struct ehd_buf *b);

#endif /* EHD_PERF_STREAM_H */
