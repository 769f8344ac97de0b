// SPDX-License-Identifier: MIT
/*
 * vm-noaccess - a program without access to user_events runs on
 *
 * Run as root in the test guest. A child process becomes user and group
 * 65534 (nobody) and checks that EH_REGISTER() fails with EACCES, that
 * writes return EBADF, EH_ENABLED() is 0, EH_UNREGISTER() is harmless and
 * the program goes on. Then, to show that the EACCES was about permission,
 * user_events_data is opened up to other users (chmod) and another such
 * child registers successfully.
 */
#include <grp.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include <eventheader/eh-provider.h>

#include "vm-util.h"

EH_DEFINE_PROVIDER(noaccess_provider, "EhVmTest_NoAccess");

#define NOBODY 65534
#define DATA_FILE VM_TRACEFS "/user_events_data"

static int become_nobody(void)
{
	if (setgroups(0, NULL) < 0 || setgid(NOBODY) < 0 || setuid(NOBODY) < 0)
		return errno;
	/* Changing uid makes /proc/self root's; this program reads it. */
	prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
	return 0;
}

static int write_event(int i)
{
	return EH_WRITE(noaccess_provider, "Attempt", EH_LEVEL(4), EH_KEYWORD(1),
			EH_INT32("i", i), EH_STRING_UTF8("who", "nobody"));
}

/* Child without access: everything must fail softly. */
static int without_access(void)
{
	int err, i, bad;

	err = become_nobody();
	VM_CHECK(err == 0 && getuid() == NOBODY && geteuid() == NOBODY,
		 "child runs as uid %d", (int)geteuid());
	err = access(DATA_FILE, W_OK) < 0 ? errno : 0;
	VM_CHECK(err != 0, "uid %d cannot write %s (%s)", NOBODY, DATA_FILE,
		 strerror(err));
	err = EH_REGISTER(noaccess_provider);
	VM_CHECK(err == EACCES, "EH_REGISTER() as uid %d = %d (%s), EACCES expected",
		 NOBODY, err, strerror(err));
	VM_CHECK(vm_user_events_fds() == 0, "no user_events_data descriptor open");
	for (bad = 0, i = 0; i < 100; i++)
		bad += write_event(i) != EBADF;
	VM_CHECK(bad == 0, "100 EH_WRITE()s return EBADF (%d did not)", bad);
	VM_CHECK(!EH_ENABLED(noaccess_provider, 4, 1), "EH_ENABLED() is 0");
	EH_UNREGISTER(noaccess_provider);
	err = EH_REGISTER(noaccess_provider);
	VM_CHECK(err == EACCES, "a second EH_REGISTER() fails the same way (%d)",
		 err);
	EH_UNREGISTER(noaccess_provider);
	VM_CHECK(1, "the program went on after the failures");
	return vm_summary("vm-noaccess (no access)");
}

/* Child with access through the file mode. */
static int with_access(void)
{
	int err;

	err = become_nobody();
	VM_CHECK(err == 0 && geteuid() == NOBODY, "child runs as uid %d",
		 (int)geteuid());
	err = EH_REGISTER(noaccess_provider);
	VM_CHECK(err == 0, "EH_REGISTER() as uid %d with the file opened up = %d (%s)",
		 NOBODY, err, strerror(err));
	VM_CHECK(vm_event_exists("EhVmTest_NoAccess_L4K1"),
		 "its tracepoint EhVmTest_NoAccess_L4K1 is in tracefs");
	err = write_event(0);
	VM_CHECK(err == EBADF, "EH_WRITE() with no consumer returns EBADF (%d)",
		 err);
	EH_UNREGISTER(noaccess_provider);
	return vm_summary("vm-noaccess (access by file mode)");
}

static int run_child(int (*fn)(void))
{
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		vm_die("fork");
	if (pid == 0)
		_exit(fn());
	if (waitpid(pid, &status, 0) < 0)
		vm_die("waitpid");
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int main(void)
{
	struct stat dir_st, file_st;
	int rc;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (geteuid() != 0) {
		printf("FAIL vm-noaccess must start as root (it drops to uid %d)\n",
		       NOBODY);
		return 1;
	}
	if (stat(VM_TRACEFS, &dir_st) < 0 || stat(DATA_FILE, &file_st) < 0)
		vm_die("stat " DATA_FILE);
	printf("     %s mode %04o, %s mode %04o\n", VM_TRACEFS,
	       (unsigned int)(dir_st.st_mode & 07777), DATA_FILE,
	       (unsigned int)(file_st.st_mode & 07777));

	rc = run_child(without_access);
	VM_CHECK(rc == 0, "child without access: all checks passed (exit %d)", rc);

	if (chmod(VM_TRACEFS, dir_st.st_mode | 0005) < 0 ||
	    chmod(DATA_FILE, file_st.st_mode | 0006) < 0)
		vm_die("chmod");
	rc = run_child(with_access);
	VM_CHECK(rc == 0, "child with access by file mode: all checks passed (exit %d)",
		 rc);
	chmod(DATA_FILE, file_st.st_mode & 07777);
	chmod(VM_TRACEFS, dir_st.st_mode & 07777);
	VM_CHECK(vm_event_wait_gone("EhVmTest_NoAccess_L4K1", 3000),
		 "EhVmTest_NoAccess_L4K1 left tracefs after the child unregistered");
	return vm_summary("vm-noaccess");
}
