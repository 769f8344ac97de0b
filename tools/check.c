// SPDX-License-Identifier: MIT
/*
 * check.c - ehrecord --check: what recording needs, one line each
 *
 *	ok   kernel: Linux 6.12.9 (user_events came with 6.4)
 *	FAIL user_events: not in this kernel (...); fix: ...
 *
 * The states: "ok"; "FAIL", recording cannot work (exit status 1);
 * "warn", it works but records less (no names for kernel frames, no user
 * stacks); "skip", not checked because of a failure above.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>

#include <tracefs.h>

#include "check.h"
#include "list.h"

enum state { ST_OK, ST_WARN, ST_FAIL, ST_SKIP };

static const char *const state_text[] = { "ok", "warn", "FAIL", "skip" };

struct ctx {
	bool jsonl;
	int fails;
};

/* One line: STATE WHAT: DETAIL[; fix: FIX] */
static void __attribute__((format(printf, 5, 6)))
say(struct ctx *c, enum state st, const char *what, const char *fix,
    const char *fmt, ...)
{
	char detail[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(detail, sizeof(detail), fmt, ap);
	va_end(ap);
	if (st == ST_FAIL)
		c->fails++;
	if (c->jsonl) {
		printf("{\"check\":");
		print_json_string(what, strlen(what));
		printf(",\"state\":\"%s\",\"detail\":", state_text[st]);
		print_json_string(detail, strlen(detail));
		if (fix && st != ST_OK) {
			printf(",\"fix\":");
			print_json_string(fix, strlen(fix));
		}
		printf("}\n");
		return;
	}
	printf("%-4s %s: %s", state_text[st], what, detail);
	if (fix && st != ST_OK)
		printf("; fix: %s", fix);
	putchar('\n');
}

static bool can(const char *path, int mode)
{
	return !faccessat(AT_FDCWD, path, mode, AT_EACCESS);
}

/* A number in a /proc file; false when it cannot be read. */
static bool read_int(const char *path, long *v)
{
	FILE *f = fopen(path, "re");
	bool ok;

	if (!f)
		return false;
	ok = fscanf(f, "%ld", v) == 1;
	fclose(f);
	return ok;
}

/* ---- kernel and its configuration ---------------------------------------- */

/*
 * What the kernel's configuration says of CONFIG_@name: 'y', 'm', 'n'
 * (not set), or 0 when no configuration was found. @src gets its file.
 */
static char kconfig(const char *name, char *src, size_t size)
{
	struct utsname u;
	char line[512], want[128];
	size_t n = (size_t)snprintf(want, sizeof(want), "CONFIG_%s", name);
	char v = 0;
	pid_t pid = -1;
	int p[2], status;
	FILE *f;

	uname(&u);
	snprintf(src, size, "/boot/config-%s", u.release);
	f = fopen(src, "re");
	if (!f && !access("/proc/config.gz", R_OK) && !pipe2(p, O_CLOEXEC)) {
		/* gzip, rather than a library for one file */
		pid = fork();
		if (pid == 0) {
			dup2(p[1], STDOUT_FILENO);
			execlp("gzip", "gzip", "-dc", "/proc/config.gz",
			       (char *)NULL);
			_exit(127);
		}
		close(p[1]);
		if (pid > 0)
			f = fdopen(p[0], "r");
		if (!f)
			close(p[0]);
		snprintf(src, size, "/proc/config.gz");
	}
	if (!f)
		return 0;
	/* "CONFIG_X=y" or "# CONFIG_X is not set"; not named: not set */
	while (!v && fgets(line, sizeof(line), f)) {
		if (!strncmp(line, want, n) && line[n] == '=')
			v = line[n + 1];
		else if (!strncmp(line, "# ", 2) &&
			 !strncmp(line + 2, want, n) &&
			 !strncmp(line + 2 + n, " is not set", 11))
			v = 'n';
	}
	while (fgets(line, sizeof(line), f))
		;	/* to the end: gzip must not block on a full pipe */
	if (!v && !ferror(f))
		v = 'n';
	fclose(f);
	if (pid > 0 && (waitpid(pid, &status, 0) != pid ||
			!WIFEXITED(status) || WEXITSTATUS(status)))
		v = 0;	/* gzip failed: no verdict */
	return v;
}

static void check_kernel(struct ctx *c)
{
	unsigned int major = 0, minor = 0;
	struct utsname u;

	uname(&u);
	sscanf(u.release, "%u.%u", &major, &minor);
	if (major > 6 || (major == 6 && minor >= 4))
		say(c, ST_OK, "kernel", NULL,
		    "Linux %s (user_events came with 6.4)", u.release);
	else
		say(c, ST_FAIL, "kernel",
		    "Linux 6.4 or later, built with CONFIG_USER_EVENTS=y",
		    "Linux %s is older than 6.4, the first with user_events",
		    u.release);
}

/* ---- tracefs and user_events --------------------------------------------- */

/*
 * Where tracefs is mounted (or debugfs, with its tracing folder); false
 * when nowhere. libtracefs looks, and mounts nothing: --check changes
 * nothing.
 */
static bool tracefs_mount(char *dir, size_t size)
{
	const char *path = NULL;
	bool fits;

	if (tracefs_tracing_dir_is_mounted(false, &path) != 1 || !path)
		return false;
	fits = (size_t)snprintf(dir, size, "%s", path) < size;
	/* (allocated for the caller, for all its const: libtracefs 1.6) */
	free((char *)path);
	return fits;
}

/* tracefs; true when it can be read (its events too). */
static bool check_tracefs(struct ctx *c, char *dir, size_t size)
{
	char events[4200];

	if (!tracefs_mount(dir, size)) {
		if (geteuid() == 0) {
			say(c, ST_WARN, "tracefs", NULL,
			    "not mounted; ehrecord run as root mounts it at /sys/kernel/tracing itself");
			return false;
		}
		say(c, ST_FAIL, "tracefs",
		    "mount -t tracefs nodev /sys/kernel/tracing (as root)",
		    "not mounted");
		return false;
	}
	snprintf(events, sizeof(events), "%s/events", dir);
	if (!can(dir, R_OK | X_OK) || !can(events, R_OK | X_OK)) {
		say(c, ST_FAIL, "tracefs",
		    "run as root, or remount tracefs for a group of this user (mount -o remount,gid=GROUP,mode=750 on it)",
		    "mounted at %s, but this user (uid %u) cannot read it",
		    dir, (unsigned int)geteuid());
		return false;
	}
	say(c, ST_OK, "tracefs", NULL, "mounted at %s, readable", dir);
	return true;
}

/* user_events; true when it is there and its files can be used. */
static bool check_user_events(struct ctx *c, const char *dir, bool readable)
{
	static const char fix[] =
		"a kernel built with CONFIG_USER_EVENTS=y (Linux 6.4 or later)";
	char path[4200], src[300], cfg;

	if (readable) {
		snprintf(path, sizeof(path), "%s/user_events_data", dir);
		if (!access(path, F_OK)) {
			say(c, ST_OK, "user_events", NULL,
			    "in this kernel (%s)", path);
			return true;
		}
		cfg = kconfig("USER_EVENTS", src, sizeof(src));
		say(c, ST_FAIL, "user_events", fix,
		    "not in this kernel: %s has no user_events_data (%s%s)",
		    dir, cfg == 'n' ? "CONFIG_USER_EVENTS is not set in " :
				      "it needs CONFIG_USER_EVENTS",
		    cfg == 'n' ? src : "");
		return false;
	}
	cfg = kconfig("USER_EVENTS", src, sizeof(src));
	if (cfg == 'y')
		say(c, ST_OK, "user_events", NULL,
		    "CONFIG_USER_EVENTS=y in %s (tracefs cannot be read to see it)",
		    src);
	else if (cfg)
		say(c, ST_FAIL, "user_events", fix,
		    "not in this kernel: CONFIG_USER_EVENTS is not set in %s",
		    src);
	else
		say(c, ST_WARN, "user_events", NULL,
		    "cannot tell: tracefs cannot be read, and the kernel's configuration is not in /boot or /proc/config.gz");
	return false;
}

static void check_data(struct ctx *c, const char *dir, bool readable,
		       bool user_events)
{
	char path[4200];

	if (!readable || !user_events) {
		say(c, ST_SKIP, "user_events_data", NULL, "%s",
		    readable ? "no user_events" : "tracefs cannot be read");
		return;
	}
	snprintf(path, sizeof(path), "%s/user_events_data", dir);
	if (can(path, W_OK))
		say(c, ST_OK, "user_events_data", NULL,
		    "%s can be written: programs can write events, and ehrecord can register tracepoints before they start",
		    path);
	else
		say(c, ST_FAIL, "user_events_data", "run as root",
		    "%s cannot be written by this user (%s): programs run as this user write no events, and ehrecord cannot register tracepoints before a program starts",
		    path, strerror(errno));
}

/* ---- perf ---------------------------------------------------------------- */

/* Is capability @cap in this process's effective set? */
static bool capable(unsigned int cap)
{
	char line[256];
	unsigned long long eff = 0;
	bool found = false;
	FILE *f = fopen("/proc/self/status", "re");

	if (!f)
		return geteuid() == 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &eff) == 1) {
			found = true;
			break;
		}
	fclose(f);
	return found ? (eff >> cap) & 1 : geteuid() == 0;
}

#define CAP_SYS_ADMIN_BIT 21
#define CAP_PERFMON_BIT 38

static void check_perf(struct ctx *c)
{
	static const char path[] = "/proc/sys/kernel/perf_event_paranoid";
	long paranoid;

	if (!read_int(path, &paranoid)) {
		say(c, ST_FAIL, "perf", "a kernel built with CONFIG_PERF_EVENTS=y",
		    "no perf events in this kernel (%s cannot be read)", path);
		return;
	}
	if (capable(CAP_PERFMON_BIT) || capable(CAP_SYS_ADMIN_BIT))
		say(c, ST_OK, "perf", NULL,
		    "this user has %s (kernel.perf_event_paranoid = %ld does not apply)",
		    capable(CAP_PERFMON_BIT) ? "CAP_PERFMON" : "CAP_SYS_ADMIN",
		    paranoid);
	else if (paranoid <= -1)
		say(c, ST_OK, "perf", NULL,
		    "kernel.perf_event_paranoid = %ld: any user may record tracepoints on every CPU",
		    paranoid);
	else
		say(c, ST_FAIL, "perf",
		    "run as root, or sysctl kernel.perf_event_paranoid=-1, or give ehrecord CAP_PERFMON (setcap cap_perfmon+ep) with tracefs readable",
		    "no CAP_PERFMON, and kernel.perf_event_paranoid = %ld: tracepoints on every CPU need one or -1",
		    paranoid);
}

/* ---- kernel symbols ------------------------------------------------------ */

static void check_kallsyms(struct ctx *c)
{
	static const char fix[] =
		"run as root, or sysctl kernel.kptr_restrict=0";
	char line[512], kptr[32] = "?";
	unsigned long long addr;
	bool shown = false;
	long v;
	int i;
	FILE *f;

	if (read_int("/proc/sys/kernel/kptr_restrict", &v))
		snprintf(kptr, sizeof(kptr), "%ld", v);
	f = fopen("/proc/kallsyms", "re");
	if (!f) {
		say(c, ST_WARN, "kernel symbols", fix,
		    "cannot read /proc/kallsyms (%s): the kernel frames of stacks will have no names",
		    strerror(errno));
		return;
	}
	for (i = 0; i < 16 && fgets(line, sizeof(line), f); i++)
		if (sscanf(line, "%llx", &addr) == 1 && addr) {
			shown = true;
			break;
		}
	fclose(f);
	if (shown)
		say(c, ST_OK, "kernel symbols", NULL,
		    "/proc/kallsyms shows addresses to this user (kernel.kptr_restrict = %s)",
		    kptr);
	else
		say(c, ST_WARN, "kernel symbols", fix,
		    "/proc/kallsyms hides addresses from this user (kernel.kptr_restrict = %s): the kernel frames of stacks will have no names",
		    kptr);
}

/* ---- frame pointers ------------------------------------------------------ */

/* The file execvp() would run for @name, in @path; false if none. */
static bool find_program(const char *name, char *path, size_t size)
{
	const char *dirs = getenv("PATH"), *p, *end;
	size_t n;

	if (strchr(name, '/')) {
		snprintf(path, size, "%s", name);
		return true;
	}
	if (!dirs)
		dirs = "/usr/local/bin:/usr/bin:/bin";
	for (p = dirs; ; p = end + 1) {
		end = strchrnul(p, ':');
		n = (size_t)(end - p);
		snprintf(path, size, "%.*s%s%s", (int)n, p, n ? "/" : "",
			 name);
		if (can(path, X_OK))
			return true;
		if (!*end)
			return false;
	}
}

/* Functions of the C runtime's start files, never built by the program. */
static bool crt_function(const char *name)
{
	static const char *const crt[] = {
		"_start", "_init", "_fini", "deregister_tm_clones",
		"register_tm_clones", "__do_global_dtors_aux", "frame_dummy",
		"__libc_csu_init", "__libc_csu_fini",
		"_dl_relocate_static_pie",
	};
	size_t i;

	for (i = 0; i < sizeof(crt) / sizeof(crt[0]); i++)
		if (!strcmp(name, crt[i]))
			return true;
	return false;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Does the code at @p (@n bytes) set up a frame pointer first? push %rbp
 * (after endbr64), then mov %rsp,%rbp within a few instructions (GCC
 * schedules others between them).
 */
static bool fp_prologue(const unsigned char *p, size_t n)
{
	static const unsigned char endbr64[] = { 0xf3, 0x0f, 0x1e, 0xfa };
	static const unsigned char mov[] = { 0x48, 0x89, 0xe5 };
	size_t i;

	if (n >= 4 && !memcmp(p, endbr64, 4)) {
		p += 4;
		n -= 4;
	}
	if (!n || p[0] != 0x55)
		return false;
	for (i = 1; i + 3 <= n && i < 24; i++)
		if (!memcmp(p + i, mov, 3))
			return true;
	return false;
}

/*
 * Count the functions of @e (its .symtab, else .dynsym) and those that
 * start with push %rbp; mov %rsp,%rbp. -1 when it has no symbol table.
 */
static int count_frames(Elf *e, size_t *funcs, size_t *framed)
{
	Elf_Scn *scn = NULL, *symtab = NULL, *code;
	GElf_Shdr sh, csh;
	size_t nsym, i, nseen = 0;
	uint64_t *seen;
	Elf_Data *syms, *data;
	GElf_Sym sym;
	const char *name;

	while ((scn = elf_nextscn(e, scn))) {
		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_SYMTAB ||
		    (sh.sh_type == SHT_DYNSYM && !symtab))
			symtab = scn;
	}
	if (!symtab || !gelf_getshdr(symtab, &sh) || !sh.sh_entsize)
		return -1;
	syms = elf_getdata(symtab, NULL);
	nsym = sh.sh_size / sh.sh_entsize;
	seen = calloc(nsym ? nsym : 1, sizeof(*seen));
	if (!syms || !seen) {
		free(seen);
		return -1;
	}
	*funcs = *framed = 0;
	for (i = 0; i < nsym; i++) {
		if (!gelf_getsym(syms, (int)i, &sym) ||
		    GELF_ST_TYPE(sym.st_info) != STT_FUNC || !sym.st_size ||
		    sym.st_shndx == SHN_UNDEF || sym.st_shndx >= SHN_LORESERVE)
			continue;
		name = elf_strptr(e, sh.sh_link, sym.st_name);
		if (!name || crt_function(name) || strstr(name, ".cold"))
			continue;	/* not the program's, or not code */
		code = elf_getscn(e, sym.st_shndx);
		if (!code || !gelf_getshdr(code, &csh) ||
		    csh.sh_type != SHT_PROGBITS ||
		    !(csh.sh_flags & SHF_EXECINSTR))
			continue;
		data = elf_getdata(code, NULL);
		if (!data || !data->d_buf || sym.st_value < csh.sh_addr ||
		    sym.st_value - csh.sh_addr >= data->d_size)
			continue;
		seen[nseen++] = sym.st_value;
		/* the same code under two names counts once: marked below */
		if (fp_prologue((const unsigned char *)data->d_buf +
					(sym.st_value - csh.sh_addr),
				data->d_size - (sym.st_value - csh.sh_addr)))
			seen[nseen - 1] |= 1ull << 63;
	}
	if (nseen)
		qsort(seen, nseen, sizeof(*seen), cmp_u64);
	for (i = 0; i < nseen; i++) {
		if (i && (seen[i] & ~(1ull << 63)) ==
			 (seen[i - 1] & ~(1ull << 63)))
			continue;
		(*funcs)++;
		*framed += seen[i] >> 63;
	}
	free(seen);
	return 0;
}

static void check_frames(struct ctx *c, const char *command)
{
	static const char fix[] =
		"build it with -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer";
	char path[4096];
	size_t funcs = 0, framed = 0;
	GElf_Ehdr eh;
	Elf *e = NULL;
	int fd;

	if (!find_program(command, path, sizeof(path))) {
		say(c, ST_FAIL, "command", "give a program that exists",
		    "%s: not found in PATH", command);
		return;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || !can(path, X_OK)) {
		say(c, ST_FAIL, "command", "give a program this user can run",
		    "%s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return;
	}
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!e || elf_kind(e) != ELF_K_ELF || !gelf_getehdr(e, &eh))
		say(c, ST_WARN, "frame pointers", NULL,
		    "%s is not an ELF program (a script?): not checked", path);
	else if (eh.e_machine != EM_X86_64)
		say(c, ST_WARN, "frame pointers", NULL,
		    "%s: only x86-64 code is checked", path);
	else if (count_frames(e, &funcs, &framed) || !funcs)
		say(c, ST_WARN, "frame pointers", NULL,
		    "%s has no function symbols (stripped?): cannot tell",
		    path);
	else if (framed * 4 >= funcs)
		say(c, ST_OK, "frame pointers", NULL,
		    "%zu of the %zu functions of %s set up a frame pointer at their start (push %%rbp; mov %%rsp,%%rbp): the user stacks of its events can be walked",
		    framed, funcs, path);
	else
		say(c, ST_WARN, "frame pointers", fix,
		    "only %zu of the %zu functions of %s set up a frame pointer at their start (push %%rbp; mov %%rsp,%%rbp): the user stacks of its events (-g, /stacks) stop short",
		    framed, funcs, path);
	elf_end(e);
	close(fd);
}

int check_run(const char *prog, bool jsonl, char *const *command)
{
	struct ctx c = { jsonl, 0 };
	char dir[4096] = "";
	bool readable, user_events;

	check_kernel(&c);
	readable = check_tracefs(&c, dir, sizeof(dir));
	user_events = check_user_events(&c, dir, readable);
	check_data(&c, dir, readable, user_events);
	check_perf(&c);
	check_kallsyms(&c);
	if (command && command[0])
		check_frames(&c, command[0]);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "%s: standard output: %s\n", prog,
			strerror(errno));
		return 1;
	}
	return c.fails ? 1 : 0;
}
