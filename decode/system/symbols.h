/* SPDX-License-Identifier: MIT */
/*
 * symbols.h - function names for the addresses of stacks, from the ELF
 * symbol tables of the mapped files and their debug files (elfutils
 * libdw/libelf), the perf maps of JITs and /proc/kallsyms (libehdecode,
 * private)
 *
 *	struct ehd__syms *sy = ehd__syms_new();
 *	struct ehd__sym s;
 *
 *	(a user address ip in a mapping start..end of file "path" at pgoff)
 *	if (!ehd__syms_file(sy, "/usr/lib/x86_64-linux-gnu/libc.so.6",
 *			    pgoff + (ip - start), &s))
 *		printf("%s+0x%llx %s+0x%llx\n", path, s.addr, s.name, s.offset);
 *	(a kernel address)
 *	if (!ehd__syms_kernel(sy, ip, &s)) ...
 *	ehd__syms_free(sy);
 *
 * Files are read once and kept (by path) with their symbol tables sorted;
 * a function's name is read from its file when first asked for. A file
 * that cannot be read or has no symbols is remembered as such and not
 * tried again. Names stay valid until ehd__syms_free().
 */
#ifndef EHD_SYMBOLS_H
#define EHD_SYMBOLS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct ehd__syms;

/*
 * struct ehd__sym - what is known of an address
 * @addr: the address as the module's ELF file numbers it (what
 *	"addr2line -e FILE ADDR" and "nm FILE" use): for a file mapped at
 *	file offset OFF, the virtual address its loadable segment gives OFF;
 *	kernel: the address itself
 * @name: the function (or other symbol) that covers @addr, NULL when
 *	none does or the file has no symbols
 * @offset: @addr - the symbol's start
 * @start: the symbol's start, in the numbering of @addr
 * @size: the symbol's size; when the table does not say (kallsyms), up to
 *	the next symbol (at most 32 MiB)
 */
struct ehd__sym {
	uint64_t addr;
	const char *name;
	uint64_t offset;
	uint64_t start;
	uint64_t size;
};

struct ehd__syms *ehd__syms_new(void);

/*
 * ehd__syms_set_demangle() - C++ and Rust names demangled (the default),
 * or not; before any file is read
 */
void ehd__syms_set_demangle(struct ehd__syms *sy, bool on);
void ehd__syms_free(struct ehd__syms *sy);

/*
 * ehd__syms_jit() - the symbol of address @ip of process @pid from the
 * perf map its JIT writes (/tmp/perf-PID.map, looked for in the process's
 * own mount namespace while it runs); read when first asked, and again
 * when an address is not in it and the file has grown
 * Return: 0 with @s->name set, -ENOENT (no map, or not in it), -ENOMEM.
 */
int ehd__syms_jit(struct ehd__syms *sy, uint32_t pid, uint64_t ip,
		  struct ehd__sym *s);

/*
 * ehd__syms_file() - the symbol of file offset @off of the file at @path
 * Return: 0 with @s filled (@s->name may be NULL); -ENOENT when the file
 * cannot be opened or is not ELF (@s->addr is then @off), -ENOMEM.
 */
int ehd__syms_file(struct ehd__syms *sy, const char *path, uint64_t off,
		   struct ehd__sym *s);

/*
 * ehd__syms_file_offset() - the other way: the file offset of address
 * @addr (numbered as ehd__sym.addr) of the file at @path.
 * Return: 0, -ENOENT (no such file, or no loadable segment holds @addr).
 */
int ehd__syms_file_offset(struct ehd__syms *sy, const char *path,
			  uint64_t addr, uint64_t *off);

/*
 * ehd__syms_segment() - the p_vaddr and p_offset of the loadable segment
 * of the file at @path that holds file offset @off (a mapping's: the page
 * the segment begins in)
 * Return: 0, -ENOENT (no such file, or no segment there).
 */
int ehd__syms_segment(struct ehd__syms *sy, const char *path, uint64_t off,
		      uint64_t *vaddr, uint64_t *offset);

/*
 * ehd__syms_identity() - the device and inode of the file at @path as it
 * was read (once, as for its build id)
 * Return: 0, -ENOENT (it cannot be read, or is not ELF).
 */
int ehd__syms_identity(struct ehd__syms *sy, const char *path, dev_t *dev,
		       ino_t *ino);

/*
 * ehd__syms_counts() - the ELF files read so far (their headers: segments,
 * build id) and, of them, those whose symbol tables were read
 */
void ehd__syms_counts(const struct ehd__syms *sy, uint64_t *files,
		      uint64_t *with_symbols);

/*
 * ehd__syms_kernel() - the kernel symbol of address @ip, from
 * /proc/kallsyms (read once; it gives zero addresses to a reader without
 * CAP_SYSLOG when kptr_restrict is set, and then names nothing).
 * Return: 0 with @s filled (@s->name NULL when unknown), -ENOENT when
 * kallsyms cannot be read or is all zeros.
 */
int ehd__syms_kernel(struct ehd__syms *sy, uint64_t ip, struct ehd__sym *s);

/*
 * ehd__syms_build_id() - the GNU build id of the file at @path, as
 * lower-case hex into @hex (at least 2 * 64 + 1 bytes).
 * Return: its length in bytes (not hex digits), or -ENOENT.
 */
int ehd__syms_build_id(struct ehd__syms *sy, const char *path, char *hex);

#endif /* EHD_SYMBOLS_H */
