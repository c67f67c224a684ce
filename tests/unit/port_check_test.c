/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * port/port_check.c: what a port's device asks of the machine, checked when
 * the file is loaded with file:line:col: a vdev's iface= that does not
 * exist, a PCI address not on the machine (a sysfs tree of the test's own)
 * or not bound to a driver DPDK can use. Without fwd_config_machine_checks
 * (the unit tests, the fuzzers) nothing of the machine is looked at.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/config.h"
#include "port/port_check.h"

static char sysfs[64];

static void mkdev(const char *name, const char *driver)
{
	char path[256], target[256];

	snprintf(path, sizeof(path), "%s/%s", sysfs, name);
	assert_int_equal(mkdir(path, 0755), 0);
	if (driver == NULL)
		return;
	snprintf(target, sizeof(target), "../../../bus/pci/drivers/%s", driver);
	snprintf(path, sizeof(path), "%s/%s/driver", sysfs, name);
	assert_int_equal(symlink(target, path), 0);
}

static int setup(void **state)
{
	(void)state;
	snprintf(sysfs, sizeof(sysfs), "/tmp/port_check_test.XXXXXX");
	assert_non_null(mkdtemp(sysfs));
	mkdev("0000:03:00.0", "vfio-pci");
	mkdev("0000:03:00.1", "ixgbe");
	mkdev("0000:04:00.0", NULL);
	mkdev("0000:05:00.0", "mlx5_core");
	fwd_port_check_sysfs(sysfs);
	fwd_config_machine_checks = true;
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", sysfs);
	assert_int_equal(system(cmd), 0);
	fwd_config_machine_checks = false;
	return 0;
}

/* Load a file of one port on device; NULL when refused, *msg what was said. */
static struct fwd_config *load_device(const char *device, char **msg)
{
	char text[256];
	size_t len;
	FILE *f = open_memstream(msg, &len);
	struct fwd_config *cfg;

	snprintf(text, sizeof(text), "ports:\n  - name: p0\n    device: \"%s\"\n", device);
	cfg = fwd_config_load_buf("t.yaml", text, strlen(text), f);
	fclose(f);
	return cfg;
}

static void expect_ok(const char *device)
{
	char *msg = NULL;
	struct fwd_config *cfg = load_device(device, &msg);

	if (cfg == NULL)
		fail_msg("%s refused:\n%s", device, msg);
	fwd_config_free(cfg);
	free(msg);
}

static void expect_refused(const char *device, const char *says)
{
	char *msg = NULL;
	struct fwd_config *cfg = load_device(device, &msg);

	assert_null(cfg);
	/* at the device's value, line 3 column 13, the line and a caret shown */
	if (strncmp(msg, "t.yaml:3:13: ports[0].device: ", 30) != 0 || !strstr(msg, says) ||
	    !strstr(msg, "\n    device: \"") || !strstr(msg, "\n            ^"))
		fail_msg("%s: expected \"%s\", got:\n%s", device, says, msg);
	free(msg);
}

static void test_vdev_iface(void **state)
{
	(void)state;
	expect_ok("net_af_packet0,iface=lo");
	expect_ok("net_af_xdp0,iface=lo,start_queue=0");
	expect_ok("net_tap0,iface=fwdtest-not-there"); /* net_tap makes its interface */
	expect_ok("net_null0");
	expect_refused("net_af_packet0,iface=fwdtest-eht1",
	               "no interface 'fwdtest-eht1' in fwd-daemon's network namespace");
	expect_refused("net_af_xdp0,iface=fwdtest-x,start_queue=0", "'fwdtest-x'");
	expect_refused("net_pcap0,rx_iface=lo,tx_iface=fwdtest-tx", "'fwdtest-tx'");
	expect_refused("net_af_packet0,iface=l", "(did you mean 'lo'?)");
}

static void test_pci(void **state)
{
	(void)state;
	expect_ok("0000:03:00.0");
	expect_ok("03:00.0"); /* domain 0 when left out */
	expect_ok("0000:05:00.0");
	expect_refused("0000:09:00.0", "no PCI device 0000:09:00.0 on this machine");
	expect_refused("0000:03:00.1", "is bound to 'ixgbe', which DPDK cannot drive: bind it to "
	                               "vfio-pci (dpdk-devbind.py -b vfio-pci 0000:03:00.1)");
	expect_refused("04:00.0", "PCI device 0000:04:00.0 is bound to no driver");
}

static void test_off_without_flag(void **state)
{
	(void)state;
	fwd_config_machine_checks = false;
	expect_ok("0000:09:00.0");
	expect_ok("net_af_packet0,iface=fwdtest-eht1");
	fwd_config_machine_checks = true;
}

static void test_is_pci(void **state)
{
	(void)state;
	assert_true(fwd_device_is_pci("0000:03:00.0"));
	assert_true(fwd_device_is_pci("03:00.0"));
	assert_false(fwd_device_is_pci("net_tap0"));
	assert_false(fwd_device_is_pci("0000:03:00.0,x=1"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vdev_iface),
		cmocka_unit_test(test_pci),
		cmocka_unit_test(test_off_without_flag),
		cmocka_unit_test(test_is_pci),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
