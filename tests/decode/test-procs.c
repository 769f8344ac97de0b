// SPDX-License-Identifier: MIT
/*
 * test-procs - processes and mappings from side-band records (procs.c):
 * a new mapping cuts what it covers out of older ones (the parts before
 * and after stay, with their file offsets moved); a fork copies the
 * parent's mappings, an exec empties them (a new process, after the end
 * of the old); non-executable mappings and the kernel's own are left
 * out; frames fall into the right mapping; the outer end of stacks is
 * cut of garbage and told whole or broken.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <cmocka.h>
#include <linux/perf_event.h>

#include "system/procs.h"
#include "system/threads.h"

/* An MMAP2 body (host order): pid, tid, addr, len, pgoff, ..., prot, name. */
static size_t mmap2(uint8_t *b, uint32_t pid, uint64_t addr, uint64_t len,
		    uint64_t pgoff, uint32_t prot, const char *name)
{
	memset(b, 0, 64);
	memcpy(b, &pid, 4);
	memcpy(b + 4, &pid, 4);
	memcpy(b + 8, &addr, 8);
	memcpy(b + 16, &len, 8);
	memcpy(b + 24, &pgoff, 8);
	memcpy(b + 56, &prot, 4);
	strcpy((char *)b + 64, name);
	return 64 + strlen(name) + 1;
}

static void map(struct ehd__procs *ps, uint32_t pid, uint64_t addr,
		uint64_t len, uint64_t pgoff, const char *name, bool want)
{
	struct ehd__threads t = { 0 };
	struct ehd_system sys;
	uint8_t b[256];
	size_t n = mmap2(b, pid, addr, len, pgoff, PROT_READ | PROT_EXEC,
			 name);

	assert_int_equal(ehd__procs_record(ps, PERF_RECORD_MMAP2, 0, b, n, 0,
					   &t, &sys), want);
	if (want) {
		assert_int_equal(sys.kind, EHD_SYSTEM_MAPPING);
		assert_int_equal(sys.pid, pid);
		assert_int_equal(sys.start, addr);
		assert_int_equal(sys.end, addr + len);
		assert_string_equal(sys.file_name, name);
	}
}

/* Frame of @ip in @pid: its module (NULL for none) and offset. */
static void frame(struct ehd__procs *ps, uint32_t pid, uint64_t ip,
		  const char *module, uint64_t offset)
{
	uint64_t chain[2] = { (uint64_t)PERF_CONTEXT_USER, ip };
	struct ehd_frame f;

	assert_int_equal(ehd__procs_frames(ps, pid, chain, 2, &f, 1), 1);
	assert_int_equal(f.ip, ip);
	assert_int_equal(f.kind, EHD_FRAME_USER);
	if (!module) {
		assert_null(f.module);
		return;
	}
	assert_non_null(f.module);
	assert_string_equal(f.module, module);
	assert_int_equal(f.offset, offset);	/* not ELF files: file offsets */
}

static void overlaps(void **state)
{
	struct ehd__procs *ps = ehd__procs_new();
	uint8_t b[256];
	struct ehd__threads t = { 0 };
	struct ehd_system sys;
	size_t n;

	(void)state;
	assert_non_null(ps);
	map(ps, 10, 0x10000, 0x10000, 0x0, "[a]", true);
	map(ps, 10, 0x30000, 0x1000, 0x0, "[c]", true);
	/* [b] over the middle of [a]: [a] before it, [b], [a] after it */
	map(ps, 10, 0x14000, 0x2000, 0x500, "[b]", true);
	frame(ps, 10, 0x13fff, "[a]", 0x3fff);
	frame(ps, 10, 0x14000, "[b]", 0x500);
	frame(ps, 10, 0x15fff, "[b]", 0x1fff + 0x500);
	frame(ps, 10, 0x16000, "[a]", 0x6000);
	frame(ps, 10, 0x1ffff, "[a]", 0xffff);
	frame(ps, 10, 0x20000, NULL, 0);
	frame(ps, 10, 0x30010, "[c]", 0x10);
	/* [d] over all of [b] and the start of the rest of [a] */
	map(ps, 10, 0x13000, 0x4000, 0x0, "[d]", true);
	frame(ps, 10, 0x12fff, "[a]", 0x2fff);
	frame(ps, 10, 0x14000, "[d]", 0x1000);
	frame(ps, 10, 0x17000, "[a]", 0x7000);
	/* other processes, data and the kernel's own are not mappings */
	frame(ps, 11, 0x14000, NULL, 0);
	n = mmap2(b, 10, 0x50000, 0x1000, 0, PROT_READ | PROT_WRITE, "[data]");
	assert_false(ehd__procs_record(ps, PERF_RECORD_MMAP2, 0, b, n, 0, &t,
				       &sys));
	n = mmap2(b, UINT32_MAX, 0x60000, 0x1000, 0, PROT_EXEC, "[k]");
	assert_false(ehd__procs_record(ps, PERF_RECORD_MMAP2, 0, b, n, 0, &t,
				       &sys));
	frame(ps, 10, 0x50000, NULL, 0);
	assert_int_equal(ehd__procs_error(ps), 0);
	ehd__procs_free(ps);
}

static void fork_exec(void **state)
{
	struct ehd__procs *ps = ehd__procs_new();
	struct ehd__threads t = { 0 };
	struct ehd_system sys;
	uint32_t rec[6] = { 20, 10, 20, 10, 0, 0 };	/* pid ppid tid ptid */
	uint8_t comm[24] = { 0 };
	uint32_t pid = 20;

	(void)state;
	assert_non_null(ps);
	ehd__threads_comm(&t, 10, 10, "parent", 6);
	map(ps, 10, 0x10000, 0x1000, 0, "[p]", true);
	assert_true(ehd__procs_record(ps, PERF_RECORD_FORK, 0,
				      (const uint8_t *)rec, sizeof(rec), 0, &t,
				      &sys));
	assert_int_equal(sys.kind, EHD_SYSTEM_PROCESS_CREATE);
	assert_int_equal(sys.pid, 20);
	assert_string_equal(sys.name, "parent");	/* inherited */
	frame(ps, 20, 0x10010, "[p]", 0x10);		/* copied */
	/* exec: a new name, an empty address space */
	memcpy(comm, &pid, 4);
	memcpy(comm + 4, &pid, 4);
	strcpy((char *)comm + 8, "child");
	assert_true(ehd__procs_record(ps, PERF_RECORD_COMM,
				      PERF_RECORD_MISC_COMM_EXEC, comm,
				      sizeof(comm), 0, &t, &sys));
	/* ... a new process, the old one ending first */
	assert_int_equal(sys.kind, EHD_SYSTEM_PROCESS_CREATE);
	assert_true(ehd__procs_exec_ended(ps));
	assert_string_equal(sys.name, "child");
	frame(ps, 20, 0x10010, NULL, 0);
	frame(ps, 10, 0x10010, "[p]", 0x10);		/* the parent's stay */
	/*
	 * The next fork, right after that exec, is a new process with its
	 * parent's mappings: no exec of it ends (the exec before is not its).
	 */
	rec[0] = rec[2] = 22;
	assert_true(ehd__procs_record(ps, PERF_RECORD_FORK, 0,
				      (const uint8_t *)rec, sizeof(rec), 0, &t,
				      &sys));
	assert_int_equal(sys.kind, EHD_SYSTEM_PROCESS_CREATE);
	assert_int_equal(sys.pid, 22);
	assert_false(ehd__procs_exec_ended(ps));
	frame(ps, 22, 0x10010, "[p]", 0x10);		/* copied */
	/* a thread's fork is no process */
	rec[0] = 10;
	rec[2] = 21;
	assert_false(ehd__procs_record(ps, PERF_RECORD_FORK, 0,
				       (const uint8_t *)rec, sizeof(rec), 0,
				       &t, &sys));
	ehd__threads_free(&t);
	ehd__procs_free(ps);
}

/* cswitch: the time off the CPU and the stack the thread left with. */
static void switches(void **state)
{
	struct ehd__procs *ps = ehd__procs_new();
	uint64_t a[2] = { 1, 2 }, b[1] = { 3 }, off;
	const uint64_t *stack;
	size_t n;

	(void)state;
	assert_non_null(ps);
	/* 5 leaves (stack a), 6 comes: 6 was not seen leaving */
	assert_false(ehd__procs_switch(ps, 100, 5, 6, a, 2, &off, &stack, &n));
	assert_false(ehd__procs_switch(ps, 150, 6, 7, b, 1, &off, &stack, &n));
	/* 5 comes back 200 ns after it left, with stack a */
	assert_true(ehd__procs_switch(ps, 300, 7, 5, NULL, 0, &off, &stack,
				      &n));
	assert_int_equal(off, 200);
	assert_int_equal(n, 2);
	assert_memory_equal(stack, a, sizeof(a));
	/* and only once */
	assert_false(ehd__procs_switch(ps, 400, 0, 5, NULL, 0, &off, &stack,
				       &n));
	ehd__procs_free(ps);
}

/*
 * The outer end of stacks: user addresses in no mapping (0, garbage) cut
 * from it, with the user marker when nothing is left after it; kernel
 * frames and the stacks of processes without known mappings left alone;
 * what the outermost frame is in tells a thread's start (libc, the
 * loader, the program) from a broken stack.
 */
static void stack_ends(void **state)
{
	struct ehd__procs *ps = ehd__procs_new();
	const uint64_t K = (uint64_t)PERF_CONTEXT_KERNEL;
	const uint64_t U = (uint64_t)PERF_CONTEXT_USER;
	uint64_t garbage[] = { K, 0xffffffff81000000ull, U, 0x401000, 0x7f0000001000,
			       0, 0x5f7265746e696f70ull, 0x10 };
	uint64_t all[] = { K, 0xffffffff81000000ull, U, 0, 0x2b00000000ull };
	uint64_t kernel[] = { K, 0xffffffff81000000ull };
	uint64_t other[] = { U, 0x401000, 0x600000 };

	(void)state;
	assert_non_null(ps);
	map(ps, 7, 0x400000, 0x10000, 0, "/opt/app/bin/app", true);
	map(ps, 7, 0x7f0000000000ull, 0x100000, 0,
	    "/usr/lib/x86_64-linux-gnu/libc.so.6", true);
	map(ps, 7, 0x600000, 0x1000, 0, "/usr/lib/libother.so", true);
	map(ps, 7, 0x700000, 0x1000, 0, "/lib64/ld-linux-x86-64.so.2", true);
	map(ps, 7, 0x800000, 0x1000, 0, "/lib/libc-2.31.so", true);
	map(ps, 7, 0x900000, 0x1000, 0, "/lib/ld-musl-x86_64.so.1", true);

	/* cut to the libc frame; nothing of the kernel's */
	assert_int_equal(ehd__procs_trim(ps, 7, garbage, 8), 5);
	assert_int_equal(ehd__procs_stack_end(ps, 7, "app", garbage, 5),
			 EHD__STACK_ROOT);
	/* no user frame left: the marker goes too */
	assert_int_equal(ehd__procs_trim(ps, 7, all, 5), 2);
	assert_int_equal(ehd__procs_stack_end(ps, 7, "app", all, 2),
			 EHD__STACK_BROKEN);
	assert_int_equal(ehd__procs_trim(ps, 7, kernel, 2), 2);
	/* a process whose mappings are not known: left as it is */
	assert_int_equal(ehd__procs_trim(ps, 8, garbage, 8), 8);

	/* ends in the program itself, in another library, in the idle task */
	assert_int_equal(ehd__procs_stack_end(ps, 7, "app", other, 2),
			 EHD__STACK_ROOT);
	assert_int_equal(ehd__procs_stack_end(ps, 7, "other", other, 2),
			 EHD__STACK_BROKEN);
	assert_int_equal(ehd__procs_stack_end(ps, 7, "app", other, 3),
			 EHD__STACK_BROKEN);
	assert_int_equal(ehd__procs_stack_end(ps, 0, NULL, kernel, 2),
			 EHD__STACK_IDLE);
	/* as PerfView: glibc's loader is no root, an old libc and musl are */
	other[2] = 0x700000;
	assert_int_equal(ehd__procs_stack_end(ps, 7, "app", other, 3),
			 EHD__STACK_BROKEN);
	other[2] = 0x800000;
	assert_int_equal(ehd__procs_stack_end(ps, 7, "app", other, 3),
			 EHD__STACK_ROOT);
	other[2] = 0x900000;
	assert_int_equal(ehd__procs_stack_end(ps, 7, "app", other, 3),
			 EHD__STACK_ROOT);
	/* the program's name, not a name it begins with */
	assert_int_equal(ehd__procs_stack_end(ps, 7, "ap", other, 2),
			 EHD__STACK_BROKEN);
	assert_int_equal(ehd__procs_stack_end(ps, 7, "app", other, 1),
			 EHD__STACK_NONE);
	ehd__procs_free(ps);
}

/* A trace's own mappings (nettrace): gone when its process is created anew. */
static void given_anew(void **state)
{
	struct ehd__procs *ps = ehd__procs_new();

	(void)state;
	assert_non_null(ps);
	ehd__procs_given_mapping(ps, 30, 5, 0x1000, 0x2000, 0, "/x", 2);
	frame(ps, 30, 0x1010, "/x", 0x10);
	ehd__procs_given_process(ps, 30);	/* an exec */
	frame(ps, 30, 0x1010, NULL, 0);
	ehd__procs_free(ps);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(overlaps),
		cmocka_unit_test(fork_exec),
		cmocka_unit_test(switches),
		cmocka_unit_test(stack_ends),
		cmocka_unit_test(given_anew),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
