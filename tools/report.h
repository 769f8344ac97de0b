/* SPDX-License-Identifier: MIT */
/*
 * report.h - what the tools say on standard error about what an input
 * held and the output does not show: events lost, cut or changed on the
 * way, each with its count and its cause
 *
 *	report_reader(prog, "perf.data", r, true);
 *	...
 *	if (!ehd_writer_close(w))
 *		report_writer(prog, w, EHD_OUT_NETTRACE, false);
 */
#ifndef EH_TOOLS_REPORT_H
#define EH_TOOLS_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <ehdecode/reader.h>
#include <ehdecode/session.h>
#include <ehdecode/writer.h>

/* The events @r counted lost (its LOST records, or nettrace's gaps). */
uint64_t report_lost(struct ehd_reader *r);

/*
 * Say what reader @r of input @name counted that its events do not show;
 * the events it lost only with @lost (a live session says its own).
 */
void report_reader(const char *prog, const char *name, struct ehd_reader *r,
		   bool lost);

/*
 * Say how reader @r of input @name gave out its events: how many were
 * written without being decoded (ehd_reader_pass()), the files read for
 * stacks, how many stacks and how many of them are broken (did not reach
 * their thread's start), where there are any.
 */
void report_details(const char *prog, const char *name, struct ehd_reader *r);

/*
 * Say what writer @w (of @format, closed) counted that its output does
 * not show; with @totals, its events and bytes too.
 */
void report_writer(const char *prog, struct ehd_writer *w, int format,
		   bool totals);

/*
 * struct report_recording - the file a recording wrote, for its end line
 * @output: its name
 * @last: the last file of a --switch-output series, or NULL
 * @perf: a perf.data, written as the rings had it (else converted)
 * @cut: cut short for want of room
 * @cpu_samples: with CPU samples (--cpu-sampling)
 * @events: the events a converted file holds
 * @samples_read: converted: the tracepoint samples its reader read
 * @read_all: converted: ... and that was all the stream (the conversion
 *	was not ended early)
 * @seconds: how long it recorded
 */
struct report_recording {
	const char *output;
	const char *last;
	bool perf;
	bool cut;
	bool cpu_samples;
	uint64_t events;
	uint64_t samples_read;
	bool read_all;
	double seconds;
};

/*
 * Say on @f what file @rec holds: its events and those the session (@st)
 * counted lost. For a perf.data, its events and CPU samples are those the
 * drain thread (circular: the snapshots) wrote (where it was cut short,
 * the kernel's count of its events, and its CPU samples uncounted); when
 * the kernel counted more than its rings held (a converted file's: than
 * its reader read of the whole stream), a second line says how many more,
 * unless the session was circular.
 */
void report_recording(FILE *f, const char *prog,
		      const struct report_recording *rec,
		      const struct ehd_session_stats *st);

#endif /* EH_TOOLS_REPORT_H */
