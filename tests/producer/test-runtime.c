// SPDX-License-Identifier: MIT
/*
 * test-runtime - the real user_events backend on a host without
 * user_events (eh-tracepoint.h, eh-provider.h, TraceLoggingProvider.h)
 *
 * Registering fails with a positive errno, the provider stays
 * unregistered, every write returns EBADF without evaluating its field
 * arguments, and unregistering is harmless. On a host where user_events
 * can be opened this program exits 77 (skipped): the VM tests cover that.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <eventheader/TraceLoggingProvider.h>

#define SKIP 77

EH_DEFINE_PROVIDER(rt_prov, "TestRuntime");
EH_DEFINE_PROVIDER_GROUP(rt_group, "TestRuntime", "grp1");
EH_DEFINE_PROVIDER(rt_bad, "Test Runtime");
TRACELOGGING_DEFINE_PROVIDER(rt_tlg, "TestRuntimeTlg",
	(0x11111111, 0x2222, 0x3333, 0x44, 0x44, 0x55, 0x55, 0x55, 0x55, 0x55, 0x55));

/* Field arguments count their evaluations here. */
static int evaluated;

static int32_t ival(int32_t v)
{
	evaluated++;
	return v;
}

static const char *sval(const char *s)
{
	evaluated++;
	return s;
}

static const void *pval(const void *p)
{
	evaluated++;
	return p;
}

static size_t nval(size_t n)
{
	evaluated++;
	return n;
}

static const unsigned char guid[16] = { 1, 2, 3, 4, 5, 6, 7, 8,
					9, 10, 11, 12, 13, 14, 15, 16 };
static const int32_t arr[4] = { 1, 2, 3, 4 };

/*
 * One write of each kind through @sym, every argument with a side effect.
 * Returns how many writes did not return EBADF.
 */
#define WRITE_ALL(sym)                                                         \
	((EH_WRITE(sym, "Scalar", EH_LEVEL(4), EH_KEYWORD(1),                  \
		   EH_INT32("i", ival(1)), EH_UINT64("u", ival(2)),            \
		   EH_FLOAT64("d", ival(3)), EH_POINTER("p", pval(arr))) !=   \
	  EBADF) +                                                             \
	 (EH_WRITE(sym, "Strings", EH_STRING8("s", sval("x")),                 \
		   EH_STRING_UTF8("u", sval("y")),                             \
		   EH_COUNTED_STRING8("c", sval("abc"), nval(3)),              \
		   EH_BINARY("b", pval(arr), nval(8))) != EBADF) +             \
	 (EH_WRITE(sym, "Arrays", EH_INT32_ARRAY("v", pval(arr), nval(4)),     \
		   EH_INT32_FIXED_ARRAY("f", pval(arr), 4),                    \
		   EH_GUID("g", pval(guid)), EH_IPV6("a", pval(guid))) !=      \
	  EBADF) +                                                             \
	 (EH_WRITE(sym, "Struct", EH_STRUCT("s", 2), EH_INT32("a", ival(1)),   \
		   EH_INT32("b", ival(2)),                                     \
		   EH_PACKED_FIELD("p", pval(arr), nval(4), EH_ENC_VALUE32,    \
				   0)) != EBADF) +                             \
	 (EH_WRITE_ACTIVITY(sym, "Activity", pval(guid), pval(guid),           \
			    EH_OPCODE(EH_OPCODE_ACTIVITY_START),               \
			    EH_INT32("i", ival(1))) != EBADF) +                \
	 (TraceLoggingWrite(sym, "Tlg", TraceLoggingLevel(2),                  \
			    TraceLoggingInt32(ival(5), "i"),                   \
			    TraceLoggingString(sval("s"), "s"),                \
			    TraceLoggingBinary(pval(arr), nval(4), "b")) !=    \
	  EBADF) +                                                             \
	 (TraceLoggingWriteActivity(sym, "TlgActivity", pval(guid), 0,         \
				    TraceLoggingInt32(ival(5), "i")) !=        \
	  EBADF) +                                                             \
	 (EH_WRITE(sym, "Empty") != EBADF))

/* Is user_events usable here? Then this program is not the right test. */
static int user_events_usable(void)
{
	struct eh_provider p = { "TestRuntimeProbe", "", 0 };
	int err = eh_provider_register(&p, 0, 0);

	if (err == 0)
		eh_provider_unregister(&p, 0, 0);
	return err == 0;
}

static void test_register_fails(void **state)
{
	int err;

	(void)state;
	err = EH_REGISTER(rt_prov);
	/* A positive errno, and not one of the "you did it wrong" ones. */
	assert_true(err > 0);
	assert_int_not_equal(err, EINVAL);
	assert_int_not_equal(err, EALREADY);
	assert_int_equal(rt_prov.registered, 0);
	assert_int_equal(eh__state.users, 0);
	/* Again: the same error (EALREADY only after a success). */
	assert_int_equal(EH_REGISTER(rt_prov), err);
	assert_int_equal(rt_prov.registered, 0);
	assert_int_equal(eh__state.users, 0);
	assert_int_equal(EH_REGISTER(rt_group), err);
	assert_int_equal(rt_group.registered, 0);
	assert_int_equal(TraceLoggingRegister(rt_tlg), err);
	assert_int_equal(rt_tlg.registered, 0);
	assert_int_equal(eh__state.users, 0);
}

static void test_writes_ebadf(void **state)
{
	(void)state;
	EH_REGISTER(rt_prov);
	EH_REGISTER(rt_group);
	TraceLoggingRegister(rt_tlg);
	evaluated = 0;
	assert_int_equal(WRITE_ALL(rt_prov), 0);
	assert_int_equal(WRITE_ALL(rt_group), 0);
	assert_int_equal(WRITE_ALL(rt_tlg), 0);
	assert_int_equal(evaluated, 0);
	assert_int_equal(EH_WRITE(rt_prov, "E", EH_INT32("i", 1)), EBADF);
	assert_int_equal(TraceLoggingWrite(rt_tlg, "E"), EBADF);
}

static void test_args_not_evaluated(void **state)
{
	int i, not_ebadf = 0;

	(void)state;
	evaluated = 0;
	/* Never registered. */
	for (i = 0; i < 1000; i++)
		not_ebadf += WRITE_ALL(rt_bad);
	/* Registration failed. */
	EH_REGISTER(rt_prov);
	for (i = 0; i < 1000; i++)
		not_ebadf += WRITE_ALL(rt_prov);
	/* Unregistered. */
	EH_UNREGISTER(rt_prov);
	for (i = 0; i < 1000; i++)
		not_ebadf += WRITE_ALL(rt_prov);
	assert_int_equal(not_ebadf, 0);
	assert_int_equal(evaluated, 0);
}

static void test_enabled_zero(void **state)
{
	(void)state;
	EH_REGISTER(rt_prov);
	assert_int_equal(EH_ENABLED(rt_prov, 4, 1), 0);
	assert_int_equal(EH_ENABLED(rt_prov, 5, 0), 0);
	assert_int_equal(EH_ENABLED(rt_group, 1, 0xffff), 0);
	assert_int_equal(TraceLoggingProviderEnabled(rt_tlg, 4, 0), 0);
	assert_int_equal(EH_ENABLED(rt_bad, 4, 1), 0);
}

static void test_unregister_safe(void **state)
{
	(void)state;
	/* Not registered (registration failed): nothing to undo. */
	EH_UNREGISTER(rt_prov);
	EH_UNREGISTER(rt_prov);
	EH_UNREGISTER(rt_bad);
	TraceLoggingUnregister(rt_tlg);
	eh_provider_unregister(&rt_group, 0, 0);
	assert_int_equal(rt_prov.registered, 0);
	assert_int_equal(eh__state.users, 0);
	/* And registering still gives the same answer afterwards. */
	assert_true(EH_REGISTER(rt_prov) > 0);
	assert_int_equal(rt_prov.registered, 0);
	EH_UNREGISTER(rt_prov);
	assert_int_equal(eh__state.users, 0);
}

static void test_bad_names(void **state)
{
	char name[300];
	struct eh_provider p = { 0, "", 0 };
	static const char *const bad_names[] = {
		"", " ", "a b", "a:b", "a\tb", "a\nb", "a\x7f", "Prov:",
	};
	static const char *const bad_options[] = {
		"g", "gabc", "Ga_b", "GxAy", "1", "G ", "Ga-b",
	};
	size_t i;

	(void)state;
	assert_int_equal(EH_REGISTER(rt_bad), EINVAL);
	assert_int_equal(rt_bad.registered, 0);

	p.name = NULL;
	assert_int_equal(eh_provider_register(&p, 0, 0), EINVAL);
	for (i = 0; i < sizeof(bad_names) / sizeof(bad_names[0]); i++) {
		p.name = bad_names[i];
		assert_int_equal(eh_provider_register(&p, 0, 0), EINVAL);
		assert_int_equal(p.registered, 0);
	}
	p.name = "Prov";
	for (i = 0; i < sizeof(bad_options) / sizeof(bad_options[0]); i++) {
		p.options = bad_options[i];
		assert_int_equal(eh_provider_register(&p, 0, 0), EINVAL);
		assert_int_equal(p.registered, 0);
	}
	p.options = NULL;
	assert_int_not_equal(eh_provider_register(&p, 0, 0), EINVAL);
	p.options = "Gok1";
	assert_int_not_equal(eh_provider_register(&p, 0, 0), EINVAL);

	/* Too long: 235 characters (the longest is 234). */
	memset(name, 'a', 235);
	name[235] = 0;
	p.name = name;
	p.options = "";
	assert_int_equal(eh_provider_register(&p, 0, 0), EINVAL);
	name[234] = 0;
	assert_int_not_equal(eh_provider_register(&p, 0, 0), EINVAL);
	assert_int_equal(eh__state.users, 0);
}

static void test_name_with_group_too_long(void **state)
{
	char name[300];
	struct eh_provider p = { 0, "", 0 };

	(void)state;
	/*
	 * "<name>_LffKffffffffffffffffG<group>" must stay under 256
	 * characters: name + group <= 233 (as eh_dyn_provider_open() and
	 * EH_DEFINE_PROVIDER_GROUP() count). Longer is a bad name: EINVAL,
	 * not a provider whose every tracepoint silently fails to register.
	 * Here name + options = 234, then 235.
	 */
	memset(name, 'a', 229);
	name[229] = 0;
	p.name = name;
	p.options = "Gabcd";
	assert_int_not_equal(eh_provider_register(&p, 0, 0), EINVAL);
	name[229] = 'a';
	name[230] = 0;
	assert_int_equal(eh_provider_register(&p, 0, 0), EINVAL);
	assert_int_equal(p.registered, 0);
}

static void test_tracepoint_api(void **state)
{
	struct eh_tracepoint tp = EH_TRACEPOINT_INIT(4, 1);
	struct eh_header h = { EH_FLAG_DEFAULT, 0, 0, 0, 0, 4 };
	struct iovec iov[2];
	static const unsigned char meta[] = { 2, 0, EH_EXT_METADATA, 0, 'E', 0 };

	(void)state;
	assert_int_equal(eh_tracepoint_enabled(&tp), 0);
	/* The provider is not registered. */
	assert_int_equal(eh_tracepoint_register(&tp, &rt_prov), EBADF);
	assert_null(tp.provider);
	assert_int_equal(tp.write_index, -1);
	eh_tracepoint_unregister(&tp);
	iov[1].iov_base = (void *)meta;
	iov[1].iov_len = sizeof(meta);
	assert_int_equal(eh_tracepoint_write(&tp, &h, 0, 0, iov, 2), EBADF);
	assert_int_equal(eh_tracepoint_write(&tp, &h, guid, guid, iov, 2),
			 EBADF);
}

/*
 * A fork while another thread holds the registration lock: the fork
 * handlers (set up by the first registration) make fork() wait for the
 * lock, so the child can register. Without them the child would inherit
 * a lock nobody will release; the alarm turns that hang into a failure.
 */
static void *hold_lock(void *arg)
{
	eh__lock();
	__atomic_store_n((int *)arg, 1, __ATOMIC_RELEASE);
	usleep(200 * 1000);
	eh__unlock();
	return NULL;
}

static void test_fork_while_registering(void **state)
{
	pthread_t t;
	int held = 0, status = 0;
	pid_t pid;

	(void)state;
	if (EH_REGISTER(rt_prov) == 0)
		EH_UNREGISTER(rt_prov);
	assert_int_equal(pthread_create(&t, NULL, hold_lock, &held), 0);
	while (!__atomic_load_n(&held, __ATOMIC_ACQUIRE))
		usleep(1000);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		alarm(5);
		if (EH_REGISTER(rt_group) == 0)
			EH_UNREGISTER(rt_group);
		_exit(0);
	}
	pthread_join(t, NULL);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_register_fails),
		cmocka_unit_test(test_writes_ebadf),
		cmocka_unit_test(test_args_not_evaluated),
		cmocka_unit_test(test_enabled_zero),
		cmocka_unit_test(test_unregister_safe),
		cmocka_unit_test(test_bad_names),
		cmocka_unit_test(test_name_with_group_too_long),
		cmocka_unit_test(test_tracepoint_api),
		cmocka_unit_test(test_fork_while_registering),
	};

	if (user_events_usable()) {
		printf("test-runtime: user_events is usable here; these tests "
		       "are for hosts without it (skipped)\n");
		return SKIP;
	}
	return cmocka_run_group_tests(tests, NULL, NULL) ? 1 : 0;
}
