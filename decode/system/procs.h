/* SPDX-License-Identifier: MIT */
/*
 * procs.h - processes, their executable mappings and where their threads
 * left the CPU, from perf's side-band records and sched_switch samples
 * (libehdecode, private)
 *
 *	struct ehd__procs *ps = ehd__procs_new();
 *	struct ehd_system sys;
 *
 *	(each COMM, FORK, EXIT, MMAP or MMAP2 record, in time order)
 *	if (ehd__procs_record(ps, &rec, big_endian, names, &sys))
 *		... a system event: sys ...
 *	(each sample's stack)
 *	n = ehd__procs_frames(ps, pid, chain, count, frames, max);
 *	ehd__procs_free(ps);
 *
 * Memory grows with the processes and mappings seen; file names are kept
 * once each.
 */
#ifndef EHD_PROCS_H
#define EHD_PROCS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <ehdecode/event.h>

struct ehd__procs;
struct ehd__threads;

/* The module of kernel frames (perf's name); a nettrace kernel mapping. */
#define EHD__KERNEL_MODULE "[kernel.kallsyms]"

struct ehd__procs *ehd__procs_new(void);

/*
 * ehd__procs_set_live() - the records are of processes running now (a
 * live session): /proc gives their pids in their own namespaces
 * (ehd_system.ns_pid, .ns_name). Off by default: a recording read after
 * the fact has its pids taken by other processes since.
 */
void ehd__procs_set_live(struct ehd__procs *ps, bool on);

/* ehd__procs_set_demangle() - see ehd__syms_set_demangle() */
void ehd__procs_set_demangle(struct ehd__procs *ps, bool on);
void ehd__procs_free(struct ehd__procs *ps);

/*
 * ehd__procs_record() - apply a side-band record
 * @ps: the state
 * @type: PERF_RECORD_COMM, _FORK, _EXIT, _MMAP or _MMAP2 (others are
 *	ignored)
 * @misc: the record's header.misc
 * @body: the record after its header, @n bytes, in file byte order (@big)
 * @names: thread names as they are before this record
 * @sys: gets the system event the record means, if any (its strings are
 *	valid until the next call)
 *
 * Return: true when @sys was filled.
 */
bool ehd__procs_record(struct ehd__procs *ps, uint32_t type, uint16_t misc,
		       const uint8_t *body, size_t n, int big,
		       const struct ehd__threads *names, struct ehd_system *sys);

/*
 * ehd__procs_exec_ended() - whether the record just applied was the exec
 * of a process named before: its PROCESS_CREATE (the new program) is to
 * come after a PROCESS_EXIT of the old one, at the same time.
 */
bool ehd__procs_exec_ended(const struct ehd__procs *ps);

/*
 * ehd__procs_frames() - attribute a perf call chain of process @pid
 * (context markers skipped; a marker says whether what follows is kernel
 * or user) to mappings and functions; with @ps NULL, only the addresses
 * and their kinds.
 * Return: frames written (at most @max).
 */
size_t ehd__procs_frames(struct ehd__procs *ps, uint32_t pid,
			 const uint64_t *chain, size_t count,
			 struct ehd_frame *frames, size_t max);

/*
 * ehd__procs_trim() - the length of call chain @chain (@count entries) of
 * process @pid without what a frame-pointer walk read past the outermost
 * real frame: the user addresses at its outer end that no mapping of the
 * process holds (0, or what was not a return address), then a user
 * marker left with nothing after it. @count when the process's mappings
 * are not known, or the chain ends in kernel frames.
 */
size_t ehd__procs_trim(const struct ehd__procs *ps, uint32_t pid,
		       const uint64_t *chain, size_t count);

/* What the outer end of a stack is (ehd__procs_stack_end()). */
enum {
	EHD__STACK_NONE,	/* no frames */
	EHD__STACK_ROOT,	/* a thread's start, as PerfView knows it */
	EHD__STACK_BROKEN,	/* anything else */
	EHD__STACK_IDLE,	/* process 0, the idle task */
};

/*
 * ehd__procs_stack_end() - EHD__STACK_ROOT when the outermost frame of
 * call chain @chain of process @pid, named @process (may be NULL), is
 * where PerfView takes a Linux stack to have reached its thread's start
 * (TraceEvent's ReasonableTopFrame): in a file whose name, without its
 * last extension, is "libc" or begins with "libc." or "libc-" (glibc's
 * start code has no frame pointers: the walk ends in it), begins with
 * "ld-musl-", or is the process's name. Else EHD__STACK_BROKEN (the
 * glibc dynamic loader too); EHD__STACK_IDLE for process 0, whose stacks
 * are the kernel's only; EHD__STACK_NONE for an empty chain.
 */
int ehd__procs_stack_end(const struct ehd__procs *ps, uint32_t pid,
			 const char *process, const uint64_t *chain,
			 size_t count);

/* What the stacks given out were (ehd_reader_stats' fields of them). */
struct ehd__stack_counts {
	uint64_t stacks, broken, idle, cut;
};

/* ehd__procs_files() - see ehd__syms_counts() */
void ehd__procs_files(const struct ehd__procs *ps, uint64_t *files,
		      uint64_t *with_symbols);

/* ehd__procs_count() - count the stack of event @ev, if it has one */
void ehd__procs_count(const struct ehd__procs *ps, const struct ehd_event *ev,
		      struct ehd__stack_counts *c);

/*
 * ehd__procs_live_at() - the first process from index *@i on (its pid in
 * *@pid) that a system event named and that has not exited; *@i is left
 * at it (go on from *@i + 1). Return: false past the last.
 */
bool ehd__procs_live_at(const struct ehd__procs *ps, size_t *i,
			uint32_t *pid);

/*
 * ehd__procs_mapping_at() - mapping @i (from 0) of process @pid as a
 * MAPPING system event in @sys (strings valid until the next call); for
 * the mappings a forked process has from its parent.
 * Return: false past the last one.
 */
bool ehd__procs_mapping_at(struct ehd__procs *ps, uint32_t pid, size_t i,
			   struct ehd_system *sys);

/*
 * ehd__procs_given_mapping(), ehd__procs_given_symbol() - a mapping of
 * process @pid and a function of a mapping, as a trace names them
 * (nettrace's Universal.System events); ehd__procs_given_process() - a
 * process (re)created: its mappings so far are dropped. Once given mappings are used,
 * stacks are attributed with them only: a frame in a mapping named
 * "[kernel.kallsyms]" is a kernel frame, and a function the trace names
 * comes before the one an ELF file on this machine would give.
 */
void ehd__procs_given_mapping(struct ehd__procs *ps, uint32_t pid, uint64_t id,
			      uint64_t start, uint64_t end, uint64_t pgoff,
			      const char *name, size_t len);
void ehd__procs_given_process(struct ehd__procs *ps, uint32_t pid);
void ehd__procs_given_symbol(struct ehd__procs *ps, uint64_t mapping_id,
			     uint64_t start, uint64_t end, const char *name,
			     size_t len);

/*
 * ehd__procs_switch() - a sched_switch at @time: thread @prev leaves the
 * CPU with stack @chain (@count addresses, may be 0), thread @next comes.
 * @off_ns: gets how long @next was off the CPU
 * @stack: gets the stack @next had left the CPU with (valid until the next
 *	call), @nstack its length
 *
 * Return: true when @next was seen leaving before (the outputs are set).
 */
bool ehd__procs_switch(struct ehd__procs *ps, uint64_t time, uint32_t prev,
		       uint32_t next, const uint64_t *chain, size_t count,
		       uint64_t *off_ns, const uint64_t **stack,
		       size_t *nstack);

/* -ENOMEM once something was dropped for want of memory, else 0. */
int ehd__procs_error(const struct ehd__procs *ps);

#endif /* EHD_PROCS_H */
