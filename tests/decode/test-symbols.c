// SPDX-License-Identifier: MIT
/*
 * test-symbols - function names of addresses: a function of this test
 * found through /proc/self/maps as a stack would give it, a libc function,
 * missing and damaged files, the build id, PLT entries (this program's
 * and AArch64 ones the AArch64 binutils link), and /proc/kallsyms when it
 * gives addresses.
 */
#include <ctype.h>
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include <cmocka.h>

#include "system/symbols.h"
#include "test-files.h"

/* A function of our own, in our .symtab; big enough for offset 5. */
__attribute__((noinline, noclone, used))
static int sym_marker_fn(int x)
{
	volatile int v = x;
	int i;

	for (i = 0; i < 3; i++)
		v = v * 3 + i;
	return v;
}

/*
 * Functions of ours under the names a C++ and a Rust compiler give them
 * (Itanium "foo::bar(int)", Rust v0 "mycrate::foo").
 */
__attribute__((noinline, noclone, used))
int cxx_marker_fn(int x) __asm__("_ZN3foo3barEi");
__attribute__((noinline, noclone, used))
int cxx_marker_fn(int x)
{
	volatile int v = x;

	return v + 1;
}

__attribute__((noinline, noclone, used))
int rust_marker_fn(int x) __asm__("_RNvCs1234_7mycrate3foo");
__attribute__((noinline, noclone, used))
int rust_marker_fn(int x)
{
	volatile int v = x;

	return v + 2;
}

/* The mapping of @addr in /proc/self/maps: its file and @addr's offset. */
static int mapping_of(uintptr_t addr, char *path, size_t size, uint64_t *off)
{
	FILE *f = fopen("/proc/self/maps", "re");
	unsigned long long start, end, pgoff;
	char line[PATH_MAX + 128];
	int ret = -1, n;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx-%llx %*s %llx %*s %*s %n", &start, &end,
			   &pgoff, &n) != 3)
			continue;
		if (addr < start || addr >= end || line[n] != '/')
			continue;
		line[strcspn(line, "\n")] = 0;
		snprintf(path, size, "%s", line + n);
		*off = pgoff + (addr - start);
		ret = 0;
		break;
	}
	fclose(f);
	return ret;
}

static void own_function(void **state)
{
	struct ehd__syms *sy = ehd__syms_new();
	uintptr_t addr = (uintptr_t)&sym_marker_fn;
	char path[PATH_MAX];
	struct ehd__sym s;
	uint64_t off, back;

	(void)state;
	assert_int_equal(sym_marker_fn(1), 32);
	assert_non_null(sy);
	assert_int_equal(mapping_of(addr, path, sizeof(path), &off), 0);

	assert_int_equal(ehd__syms_file(sy, path, off, &s), 0);
	assert_non_null(s.name);
	assert_string_equal(s.name, "sym_marker_fn");
	assert_int_equal(s.offset, 0);
	assert_int_equal(s.start, s.addr);
	assert_true(s.size > 5);
	assert_int_equal(ehd__syms_file_offset(sy, path, s.addr, &back), 0);
	assert_int_equal(back, off);

	assert_int_equal(ehd__syms_file(sy, path, off + 5, &s), 0);
	assert_non_null(s.name);
	assert_string_equal(s.name, "sym_marker_fn");
	assert_int_equal(s.offset, 5);
	assert_int_equal(ehd__syms_file_offset(sy, path, s.addr, &back), 0);
	assert_int_equal(back, off + 5);

	/* no segment holds the top of the address space */
	assert_int_equal(ehd__syms_file_offset(sy, path, UINT64_MAX - 7, &back),
			 -ENOENT);
	ehd__syms_free(sy);
}

/* The name of our function at @addr, demangled or not. */
static void check_name(uintptr_t addr, bool demangle, const char *want)
{
	struct ehd__syms *sy = ehd__syms_new();
	char path[PATH_MAX];
	struct ehd__sym s;
	uint64_t off;

	assert_non_null(sy);
	if (!demangle)
		ehd__syms_set_demangle(sy, false);
	assert_int_equal(mapping_of(addr, path, sizeof(path), &off), 0);
	assert_int_equal(ehd__syms_file(sy, path, off, &s), 0);
	assert_non_null(s.name);
	assert_string_equal(s.name, want);
	ehd__syms_free(sy);
}

/* C++ and Rust names demangled by default, as they are on request. */
static void demangled(void **state)
{
	(void)state;
	assert_int_equal(cxx_marker_fn(1) + rust_marker_fn(1), 5);
	check_name((uintptr_t)&cxx_marker_fn, true, "foo::bar(int)");
	check_name((uintptr_t)&cxx_marker_fn, false, "_ZN3foo3barEi");
	check_name((uintptr_t)&rust_marker_fn, true, "mycrate::foo");
	check_name((uintptr_t)&rust_marker_fn, false,
		   "_RNvCs1234_7mycrate3foo");
	check_name((uintptr_t)&sym_marker_fn, true, "sym_marker_fn");
}

/* The function named @name in the library after us resolves to it. */
static void check_libc(struct ehd__syms *sy, const char *name)
{
	void *p = dlsym(RTLD_NEXT, name);
	char path[PATH_MAX];
	struct ehd__sym s;
	uint64_t off;

	assert_non_null(p);
	assert_int_equal(mapping_of((uintptr_t)p, path, sizeof(path), &off),
			 0);
	assert_int_equal(ehd__syms_file(sy, path, off, &s), 0);
	assert_non_null(s.name);
	if (!strstr(s.name, name))
		fail_msg("%s in %s: named %s", name, path, s.name);
	assert_int_equal(s.offset, 0);
}

static void libc_function(void **state)
{
	struct ehd__syms *sy = ehd__syms_new();

	(void)state;
	assert_non_null(sy);
	check_libc(sy, "getpid");
	check_libc(sy, "write");	/* (ASan's own under sanitizers) */
	ehd__syms_free(sy);
}

static void missing_file(void **state)
{
	static const char path[] = "/nonexistent/ehd-test-symbols.so";
	struct ehd__syms *sy = ehd__syms_new();
	struct ehd__sym s;
	char hex[2 * 64 + 1];
	uint64_t off;
	int i;

	(void)state;
	assert_non_null(sy);
	for (i = 0; i < 2; i++) {	/* the second from the negative cache */
		assert_int_equal(ehd__syms_file(sy, path, 0x1234, &s), -ENOENT);
		assert_int_equal(s.addr, 0x1234);
		assert_null(s.name);
	}
	assert_int_equal(ehd__syms_file_offset(sy, path, 0x1234, &off),
			 -ENOENT);
	assert_int_equal(ehd__syms_build_id(sy, path, hex), -ENOENT);
	assert_int_equal(ehd__syms_file(sy, "/proc/self", 0, &s), -ENOENT);
	assert_int_equal(ehd__syms_file(sy, "", 0, &s), -ENOENT);
	assert_int_equal(ehd__syms_file(sy, "[vdso]", 0, &s), -ENOENT);
	ehd__syms_free(sy);
}

/* Look up a spread of offsets of @path: any answer but a crash will do. */
static void probe(const char *path, size_t size)
{
	struct ehd__syms *sy = ehd__syms_new();
	char hex[2 * 64 + 1];
	struct ehd__sym s;
	uint64_t off, o;
	int err;

	assert_non_null(sy);
	for (off = 0; off < size + 4096; off += 509) {
		err = ehd__syms_file(sy, path, off, &s);
		assert_true(err == 0 || err == -ENOENT);
		if (err)
			assert_null(s.name);
		if (s.name)
			assert_true(s.offset == s.addr - s.start);
		err = ehd__syms_file_offset(sy, path, off, &o);
		assert_true(err == 0 || err == -ENOENT);
	}
	err = ehd__syms_build_id(sy, path, hex);
	assert_true(err == -ENOENT || (err > 0 && err <= 64));
	ehd__syms_free(sy);
}

static void write_file(const char *path, const void *p, size_t n)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(p, 1, n, f), n);
	assert_int_equal(fclose(f), 0);
}

/* A copy of @bytes at a new temporary path, into @path. */
static void temp_copy(char *path, const void *bytes, size_t size)
{
	int fd;

	strcpy(path, "/tmp/ehd-test-symbols-XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	write_file(path, bytes, size);
}

/*
 * Names are read from the file when asked for, after its symbols: from
 * the file read (still open) when another was renamed over it; from no
 * other file once it was closed (after names of four other files).
 */
static void names_on_demand(void **state)
{
	char path[32], other[32], more[4][32], exe[PATH_MAX];
	struct ehd__syms *sy = ehd__syms_new();
	uint64_t off1, off2, off3;
	unsigned char *bytes;
	struct ehd__sym s;
	size_t size;
	int i;

	(void)state;
	assert_non_null(sy);
	assert_int_equal(mapping_of((uintptr_t)&sym_marker_fn, exe,
				    sizeof(exe), &off1), 0);
	assert_int_equal(mapping_of((uintptr_t)&cxx_marker_fn, exe,
				    sizeof(exe), &off2), 0);
	assert_int_equal(mapping_of((uintptr_t)&rust_marker_fn, exe,
				    sizeof(exe), &off3), 0);
	bytes = tf_slurp(exe, &size);
	assert_non_null(bytes);
	temp_copy(path, bytes, size);

	assert_int_equal(ehd__syms_file(sy, path, off1, &s), 0);
	assert_non_null(s.name);
	assert_string_equal(s.name, "sym_marker_fn");

	/* the same bytes, but another file renamed over it */
	temp_copy(other, bytes, size);
	assert_int_equal(rename(other, path), 0);
	assert_int_equal(ehd__syms_file(sy, path, off2, &s), 0);
	assert_non_null(s.name);
	assert_string_equal(s.name, "foo::bar(int)");	/* the file read */

	/* names of four other files: the first one is closed */
	for (i = 0; i < 4; i++) {
		temp_copy(more[i], bytes, size);
		assert_int_equal(ehd__syms_file(sy, more[i], off1, &s), 0);
		assert_non_null(s.name);
	}
	assert_int_equal(ehd__syms_file(sy, path, off3, &s), 0);
	assert_null(s.name);
	/* a name read before stays */
	assert_int_equal(ehd__syms_file(sy, path, off1, &s), 0);
	assert_non_null(s.name);
	assert_string_equal(s.name, "sym_marker_fn");

	for (i = 0; i < 4; i++)
		unlink(more[i]);
	unlink(path);
	free(bytes);
	ehd__syms_free(sy);
}

/*
 * Garbage, and copies of our own executable cut short or with bytes
 * changed: never a crash (a poor man's fuzzer, seeded for repeatability).
 */
static void damaged_files(void **state)
{
	static const size_t cuts[] = { 4, 16, 52, 63, 64, 65, 200, 4096 };
	char path[] = "/tmp/ehd-test-symbols-XXXXXX";
	unsigned char *exe, *buf;
	size_t size, i, n;
	unsigned int seed = 12345;
	int fd, round;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	exe = tf_slurp("/proc/self/exe", &size);
	assert_non_null(exe);
	assert_true(size > 4096);
	buf = malloc(size);
	assert_non_null(buf);

	for (i = 0; i < size; i++)
		buf[i] = (unsigned char)rand_r(&seed);
	write_file(path, buf, size);
	probe(path, size);

	/* cut inside the ELF header, the program headers, the sections */
	for (i = 0; i < sizeof(cuts) / sizeof(cuts[0]); i++) {
		write_file(path, exe, cuts[i]);
		probe(path, cuts[i]);
	}
	write_file(path, exe, size / 2);
	probe(path, size / 2);
	write_file(path, exe, size - 1);
	probe(path, size);

	/* the header tables (the first 4 KiB) and the end with bytes changed */
	for (round = 0; round < 40; round++) {
		memcpy(buf, exe, size);
		for (i = 0; i < 16; i++) {
			n = (size_t)rand_r(&seed);
			n = round & 1 ? n % 4096 : size - 1 - n % 4096;
			if (n >= 16)	/* keep it ELF, to get further in */
				buf[n] = (unsigned char)rand_r(&seed);
		}
		write_file(path, buf, size);
		probe(path, size);
	}
	unlink(path);
	free(buf);
	free(exe);
}

/* The build id as readelf -n gives it, or "" when readelf is missing. */
static void readelf_build_id(const char *path, char *hex, size_t size)
{
	char cmd[PATH_MAX + 64], line[512], *p;
	FILE *f;

	hex[0] = 0;
	snprintf(cmd, sizeof(cmd), "readelf -n '%s' 2>/dev/null", path);
	f = popen(cmd, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		p = strstr(line, "Build ID: ");
		if (p) {
			p += strlen("Build ID: ");
			p[strcspn(p, " \n")] = 0;
			snprintf(hex, size, "%s", p);
		}
	}
	pclose(f);
}

static void build_id(void **state)
{
	struct ehd__syms *sy = ehd__syms_new();
	char exe[PATH_MAX], hex[2 * 64 + 1], want[2 * 64 + 1];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	int i;

	(void)state;
	assert_non_null(sy);
	assert_true(n > 0);
	exe[n] = 0;
	memset(hex, 'x', sizeof(hex));
	assert_int_equal(ehd__syms_build_id(sy, "/proc/self/exe", hex), 20);
	assert_int_equal(strlen(hex), 40);
	for (i = 0; i < 40; i++)
		assert_true(isxdigit((unsigned char)hex[i]) &&
			    !isupper((unsigned char)hex[i]));
	readelf_build_id(exe, want, sizeof(want));
	if (want[0])
		assert_string_equal(hex, want);
	else
		print_message("readelf not found: build id not compared\n");
	ehd__syms_free(sy);
}

/*
 * Every PLT entry @objdump names "NAME@plt" in @path is NAME@plt to us too,
 * 2 bytes in and, when @size is not 0, @size - 1 bytes in (its last byte).
 * Returns the entries compared (of section @sec in *@in_sec), or -1 when
 * @objdump is missing.
 */
static int plt_like(struct ehd__syms *sy, const char *objdump,
		    const char *path, const char *sec, unsigned int size,
		    int *in_sec)
{
	char cmd[PATH_MAX + 96], line[1024], want[512], section[64] = "";
	unsigned long long addr;
	struct ehd__sym s;
	uint64_t off;
	int n = 0, k;
	FILE *f;

	*in_sec = 0;
	snprintf(cmd, sizeof(cmd),
		 "%s -d -C --no-show-raw-insn '%s' 2>/dev/null", objdump, path);
	f = popen(cmd, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "Disassembly of section %63[^:]:", section) == 1)
			continue;
		if (sscanf(line, "%llx <%n", &addr, &k) != 1 ||
		    !strstr(line, "@plt>:"))
			continue;
		snprintf(want, sizeof(want), "%.*s", (int)(strstr(line, ">:") -
			 (line + k)), line + k);
		assert_int_equal(ehd__syms_file_offset(sy, path, addr, &off), 0);
		assert_int_equal(ehd__syms_file(sy, path, off + 2, &s), 0);
		if (!s.name || strcmp(s.name, want) || s.offset != 2)
			fail_msg("%s: %llx in %s: %s+%llu, objdump says %s",
				 path, addr, section, s.name ? s.name : "(none)",
				 (unsigned long long)s.offset, want);
		if (size) {
			assert_int_equal(ehd__syms_file(sy, path,
							off + size - 1, &s), 0);
			if (!s.name || strcmp(s.name, want) ||
			    s.offset != size - 1)
				fail_msg("%s: %llx + %u: %s+%llu, not %s's end",
					 path, addr, size - 1,
					 s.name ? s.name : "(none)",
					 (unsigned long long)s.offset, want);
		}
		n++;
		*in_sec += !strcmp(section, sec);
	}
	return pclose(f) == 0 || n ? n : -1;
}

/*
 * A call's PLT entry is named as the function it jumps to, "NAME@plt", as
 * objdump and perf name it, not as the end of the symbol before it
 * (_init): our own (lazy .plt and .plt.got), and tests/decode/plt-ibt's
 * (IBT, .plt.sec). On x86-64 only (the AArch64 ones: plt_aarch64()).
 */
static void plt_entries(void **state)
{
	struct ehd__syms *sy = ehd__syms_new();
	const char *dir = getenv("EH_BUILDDIR");
	char exe[PATH_MAX], ibt[PATH_MAX];
	ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	int n, in_sec;

	(void)state;
	assert_non_null(sy);
	assert_true(len > 0);
	exe[len] = 0;
#ifndef __x86_64__
	print_message("not x86-64: this program's PLT entries not compared\n");
	ehd__syms_free(sy);
	return;
#endif
	n = plt_like(sy, "objdump", exe, ".plt", 0, &in_sec);
	if (n < 0) {
		print_message("objdump not found: PLT entries not compared\n");
		ehd__syms_free(sy);
		return;
	}
	assert_true(in_sec >= 5);
	snprintf(ibt, sizeof(ibt), "%s/tests/decode/plt-ibt",
		 dir ? dir : ".");
	if (access(ibt, X_OK)) {
		print_message("%s not built: no IBT PLT compared\n", ibt);
	} else {
		n = plt_like(sy, "objdump", ibt, ".plt.sec", 0, &in_sec);
		assert_true(n >= 2);
		assert_true(in_sec >= 2);
	}
	ehd__syms_free(sy);
}

/*
 * AArch64 PLT entries named as objdump names them, over the whole entry:
 * in the files tests/decode/plt-a64.sh links with the AArch64 binutils,
 * one of each of the linker's entry layouts (16 and 24 bytes; a "bti c"
 * first, an "autia1716" before the br, or both).
 */
static void plt_aarch64(void **state)
{
	const char *src = getenv("EH_SRCDIR"), *ci = getenv("CI");
	char dir[] = "/tmp/eh-plt-a64.XXXXXX", cmd[2 * PATH_MAX + 64];
	char line[PATH_MAX], name[256], path[PATH_MAX + 300];
	unsigned int size;
	struct ehd__syms *sy;
	int n, in_sec, files = 0, st;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(cmd, sizeof(cmd), "'%s/tests/decode/plt-a64.sh' '%s'",
		 src ? src : "..", dir);
	f = popen(cmd, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%255s %u", name, &size) != 2)
			fail_msg("plt-a64.sh: \"%s\"", line);
		snprintf(path, sizeof(path), "%s/%s", dir, name);
		sy = ehd__syms_new();
		assert_non_null(sy);
		n = plt_like(sy, "aarch64-linux-gnu-objdump", path, ".plt",
			     size, &in_sec);
		if (n < 4 || in_sec != n)
			fail_msg("%s: %d PLT entries compared, %d in .plt",
				 name, n, in_sec);
		ehd__syms_free(sy);
		files++;
	}
	st = pclose(f);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
	if (WIFEXITED(st) && WEXITSTATUS(st) == 77 && !files) {
		if (ci && !strcmp(ci, "true"))
			fail_msg("no binutils-aarch64-linux-gnu");
		skip();
	}
	assert_int_equal(st, 0);
	assert_int_equal(files, 6);
}

/* The address of text symbol "schedule" in kallsyms; 0 when hidden. */
static int kallsyms_schedule(uint64_t *addr)
{
	FILE *f = fopen("/proc/kallsyms", "re");
	unsigned long long a;
	char line[512], type, name[256];
	int ret = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %255s", &a, &type, name) == 3 &&
		    (type == 'T' || type == 't') && !strcmp(name, "schedule") &&
		    !strchr(line, '[')) {
			*addr = a;
			ret = 0;
			break;
		}
	}
	fclose(f);
	return ret;
}

static void kernel(void **state)
{
	struct ehd__syms *sy = ehd__syms_new();
	struct ehd__sym s;
	uint64_t addr;

	(void)state;
	assert_non_null(sy);
	if (kallsyms_schedule(&addr)) {
		print_message("no schedule in /proc/kallsyms: not tested\n");
	} else if (!addr) {
		print_message("/proc/kallsyms hides addresses: -ENOENT\n");
		assert_int_equal(ehd__syms_kernel(sy, 0x1000, &s), -ENOENT);
		assert_int_equal(ehd__syms_kernel(sy, 0x1000, &s), -ENOENT);
		assert_null(s.name);
	} else {
		assert_int_equal(ehd__syms_kernel(sy, addr, &s), 0);
		assert_non_null(s.name);
		assert_string_equal(s.name, "schedule");
		assert_int_equal(s.offset, 0);
		assert_int_equal(s.addr, addr);
		assert_int_equal(ehd__syms_kernel(sy, addr + 4, &s), 0);
		assert_string_equal(s.name, "schedule");
		assert_int_equal(s.offset, 4);
		assert_int_equal(ehd__syms_kernel(sy, 1, &s), 0);
		assert_null(s.name);
	}
	ehd__syms_free(sy);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(own_function),
		cmocka_unit_test(libc_function),
		cmocka_unit_test(demangled),
		cmocka_unit_test(missing_file),
		cmocka_unit_test(names_on_demand),
		cmocka_unit_test(damaged_files),
		cmocka_unit_test(build_id),
		cmocka_unit_test(plt_entries),
		cmocka_unit_test(plt_aarch64),
		cmocka_unit_test(kernel),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
