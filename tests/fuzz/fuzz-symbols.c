// SPDX-License-Identifier: MIT
/*
 * fuzz-symbols.c - libFuzzer target: the ELF reader that names the
 * addresses of stacks (decode/system/symbols.c), on arbitrary bytes
 * written to a file: its segments and build id, its functions (.symtab or
 * .dynsym, names read when asked), its PLT entries and its .gnu_debugdata.
 * File offsets and addresses are looked up at a stride through the file
 * and at values taken from the input; every name handed out is read
 * whole, so that ASan sees a bad pointer or length. Separate debug files
 * are looked for under an empty folder (EHD_DEBUG_DIR), so that a run
 * reads nothing but its input.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* when built without config.h */
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "system/symbols.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define STRIDE 61		/* bytes between the offsets swept */
#define PICKS 32		/* offsets taken from the input */

static char path[] = "/tmp/ehd-fuzz-symbols-XXXXXX";
static char debug_dir[] = "/tmp/ehd-fuzz-symbols-dbg-XXXXXX";
static volatile size_t sink;

static void cleanup(void)
{
	unlink(path);
	rmdir(debug_dir);
}

/* The file that inputs are written to, made once. */
static int input_file(void)
{
	static int fd = -1;

	if (fd >= 0)
		return fd;
	fd = mkstemp(path);
	if (fd < 0 || !mkdtemp(debug_dir))
		abort();
	setenv("EHD_DEBUG_DIR", debug_dir, 1);
	atexit(cleanup);
	return fd;
}

/* Look @off up as a file offset and as an address; names read whole. */
static void look_up(struct ehd__syms *sy, uint64_t off)
{
	struct ehd__sym s;
	uint64_t vaddr, poff, back;

	if (!ehd__syms_file(sy, path, off, &s) && s.name)
		sink += strlen(s.name) + s.offset + s.size;
	if (!ehd__syms_file_offset(sy, path, off, &back))
		sink += back;
	if (!ehd__syms_segment(sy, path, off, &vaddr, &poff))
		sink += vaddr + poff;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd = input_file();
	char hex[2 * 64 + 1];
	struct ehd__syms *sy;
	uint64_t off;
	size_t i;

	if (ftruncate(fd, 0) ||
	    pwrite(fd, data, size, 0) != (ssize_t)size)
		abort();
	sy = ehd__syms_new();
	if (!sy)
		return 0;
	ehd__syms_set_demangle(sy, size & 1);
	if (ehd__syms_build_id(sy, path, hex) > 0)
		sink += strlen(hex);
	for (off = 0; off < size; off += STRIDE)
		look_up(sy, off);
	for (i = 0; i < PICKS && i * 8 + 8 <= size; i++) {
		memcpy(&off, data + size - 8 - i * 8, 8);
		look_up(sy, off);
		look_up(sy, off % (size + 1));
	}
	ehd__syms_free(sy);
	return 0;
}
