# SPDX-License-Identifier: BSD-3-Clause
#
# fwd: the front door.
#   make            build build/fwd-daemon and build/fwdctl (optimised)
#   make check      install missing packages, build with ASan+UBSan, run every test
#   make demo       install missing packages, build, run the namespace demo
#   make deps       install the Debian packages fwd needs, when missing
#   make bench      benchmarks against testpmd and l3fwd (not part of check; ~40 min)
#   make bench-callgrind  instructions per packet of fwd and l3fwd under callgrind
#   make bench-iperf  iperf3 TCP through testpmd, l3fwd and fwd on veth (not part of check)
#   make bench-e2e    iperf3 and wrk through the kernel router and fwd (not part of check)
#   make fuzz       each libFuzzer target for FUZZ_SECONDS (default 60)
#   make soak       SOAK_SECONDS (default 600) of traffic and churn; not part of check
#   make lint       layering (daemon/LAYERS), clang-format dry run, cppcheck; fails on findings
#   make format     reformat the sources in place
#   make install    DESTDIR/PREFIX honoured
#   make deb        build/deb/fwd_VERSION_amd64.deb and its -dbgsym with debhelper
#                   (debian/), version from git, lintian clean (tests/deb/build.sh)
#   make check-deb  build the package, dpkg -i it on this machine, check it, purge it
#                   (tests/deb/deb_test.sh; not part of check; refuses if fwd is installed)

CC	?= gcc
SAN	?= 0
PREFIX	?= /usr/local
DESTDIR	?=

ifeq ($(SAN),1)
BUILD	?= build/san
OPT	:= -O1 -g -fno-omit-frame-pointer
SANFLAGS := -fsanitize=address,undefined -fno-sanitize-recover=undefined
else
BUILD	?= build
OPT	:= -O3 -g
SANFLAGS :=
endif

APP_PKGS := yaml-0.1 libevent libprotobuf-c
PKGS	:= libdpdk $(APP_PKGS)
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null)
CMOCKA_LIBS := $(shell pkg-config --libs cmocka 2>/dev/null)

VERSION	:= $(shell git describe --always --dirty 2>/dev/null || echo 0.1)

CPPFLAGS += -Idaemon -Iproto -I$(BUILD)/proto -DFWD_VERSION='"$(VERSION)"' -D_GNU_SOURCE \
	    -DALLOW_EXPERIMENTAL_API
CFLAGS	+= -std=gnu11 $(OPT) -Wall -Wextra -Werror -Wno-missing-field-initializers \
	   -Wshadow -Wformat=2 -Wno-format-nonliteral -MMD -MP $(SANFLAGS) $(PKG_CFLAGS)
LDFLAGS	+= $(SANFLAGS)
LDLIBS	+= $(PKG_LIBS) -lm

# fwd-daemon links DPDK statically, as VPP and grout do. From Debian's shared
# libraries every mempool get and put in a driver reads the lcore id through
# __tls_get_addr (about 11 instructions a packet) and every call between
# libraries goes through the PLT: static, fwd forwards about 10% more packets
# a second on the bench (README, Performance). Drivers are registered by
# constructors, so they are linked whole; these are the ones linked in:
DPDK_DRIVERS := bus_pci bus_vdev bus_auxiliary mempool_ring \
	net_ixgbe net_i40e net_iavf common_iavf net_ice net_e1000 net_igc \
	net_mlx5 common_mlx5 net_bnxt net_ena net_virtio net_vmxnet3 \
	net_af_packet net_af_xdp net_memif net_null net_pcap net_ring net_tap
DPDK_LIBS    := acl pcapng gso hash security cryptodev timer pci ethdev meter net mbuf \
	mempool rcu ring eal telemetry kvargs
DAEMON_LIBS  := -Wl,--whole-archive $(patsubst %,-l:librte_%.a,$(DPDK_DRIVERS) $(DPDK_LIBS)) \
	-Wl,--no-whole-archive $(shell pkg-config --libs $(APP_PKGS) 2>/dev/null) \
	-lpcap -lxdp -lbpf -lelf -lz -lnuma -lbsd -lmlx5 -libverbs -latomic -ldl -lpthread -lrt -lm

PROTO_GEN  := $(BUILD)/proto/fwd.pb-c.c
PROTO_HDR  := $(BUILD)/proto/fwd.pb-c.h
PROTO_SRCS := $(wildcard proto/*.c)
DAEMON_SRCS := $(sort $(wildcard daemon/*/*.c))
DAEMON_MAIN := daemon/main/main.c
CLI_SRCS   := $(sort $(wildcard cli/*.c))
CLI_MAIN   := cli/main.c
UNIT_SRCS  := $(sort $(wildcard tests/unit/*_test.c))

obj = $(patsubst %.c,$(BUILD)/obj/%.o,$(1))
PROTO_OBJS  := $(call obj,$(PROTO_SRCS)) $(BUILD)/obj/proto/fwd.pb-c.o
DAEMON_OBJS := $(call obj,$(filter-out $(DAEMON_MAIN),$(DAEMON_SRCS)))
CLI_OBJS    := $(call obj,$(filter-out $(CLI_MAIN),$(CLI_SRCS)))
UNIT_BINS   := $(patsubst tests/unit/%.c,$(BUILD)/tests/unit/%,$(UNIT_SRCS))

.PHONY: all deps deps-quiet fuzz-build check unit-tests tests-build demo demo-stop bench \
	bench-callgrind bench-iperf bench-e2e bench-deps bench-build fuzz soak lint format \
	install uninstall clean pkgcheck deb check-deb
.DEFAULT_GOAL := all

all: $(BUILD)/fwd-daemon $(BUILD)/fwdctl

# ---------------------------------------------------------------- packages
DEB_PKGS := build-essential pkg-config dpdk dpdk-dev libdpdk-dev dpdk-doc libyaml-dev \
	libevent-dev libprotobuf-c-dev protobuf-c-compiler libcmocka-dev python3 python3-scapy \
	python3-pytest iproute2 iputils-ping iputils-arping iperf3 ethtool traceroute tcpdump tshark procps psmisc \
	openvswitch-switch \
	nftables \
	clang clang-format cppcheck valgrind libclang-rt-14-dev \
	curl systemd mandoc groff-base man-db bash-completion python3-prometheus-client frr

# apt-get waits up to 10 minutes for another apt or dpkg (unattended
# upgrades, a second make deps) instead of failing at once on the lock
APT_GET := DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600

deps:
	@missing=$$(for p in $(DEB_PKGS); do \
		dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'ok installed' || echo $$p; \
	done); \
	if [ -n "$$missing" ]; then \
		echo "deps: installing" $$missing; \
		nostart=; if [ ! -e /usr/sbin/policy-rc.d ]; then nostart=1; \
			printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d; chmod +x /usr/sbin/policy-rc.d; fi; \
		$(APT_GET) update -qq && $(APT_GET) install -y -qq \
			--no-install-recommends $$missing >/dev/null; rc=$$?; \
		[ -z "$$nostart" ] || rm -f /usr/sbin/policy-rc.d; [ $$rc -eq 0 ] || exit 1; \
	else echo "deps: all packages present"; fi

deps-quiet:
	@$(MAKE) --no-print-directory deps >/dev/null

pkgcheck:
	@pkg-config --exists $(PKGS) || { echo "missing development packages: run 'make deps' (as root)" >&2; exit 1; }
	@command -v protoc-c >/dev/null || { echo "protoc-c missing: run 'make deps' (as root)" >&2; exit 1; }

# ------------------------------------------------------------------- build
$(PROTO_GEN) $(PROTO_HDR) &: proto/fwd.proto | pkgcheck
	@mkdir -p $(BUILD)/proto
	protoc-c --c_out=$(BUILD)/proto -Iproto proto/fwd.proto

# fwdctl knows the daemon's drop reason names (capture drops): the list is
# made from daemon/core/drop.h, one "name", a line.
DROP_NAMES_HDR := $(BUILD)/proto/fwd_drop_names.h
$(DROP_NAMES_HDR): daemon/core/drop.h
	@mkdir -p $(@D)
	sed -n 's/^[[:space:]]*X([A-Z0-9_]*, *\("[a-z0-9_]*"\)).*/\1,/p' $< >$@.tmp && mv $@.tmp $@

# ... and what each means, for `capture drops -l`: "{ "name", "its comment" },"
DROP_HELP_HDR := $(BUILD)/proto/fwd_drop_help.h
$(DROP_HELP_HDR): daemon/core/drop.h
	@mkdir -p $(@D)
	sed -n 's/^[[:space:]]*X([A-Z0-9_]*, *\("[a-z0-9_]*"\))[[:space:]]*\(\/\*[[:space:]]*\(.*[^[:space:]]\)[[:space:]]*\*\/\)\{0,1\}.*/{ \1, "\3" },/p' \
		$< >$@.tmp && mv $@.tmp $@

$(BUILD)/obj/cli/capture_drops.o $(BUILD)/tests/unit/capture_epb_test: $(DROP_NAMES_HDR) \
	$(DROP_HELP_HDR)

$(BUILD)/obj/proto/fwd.pb-c.o: $(PROTO_GEN)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(filter-out -Wshadow,$(CFLAGS)) -c -o $@ $<

$(BUILD)/obj/%.o: %.c $(PROTO_HDR)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

$(BUILD)/fwd-daemon: $(call obj,$(DAEMON_MAIN)) $(DAEMON_OBJS) $(PROTO_OBJS)
	$(CC) $(LDFLAGS) -o $@ $^ $(DAEMON_LIBS)

$(BUILD)/fwdctl: $(call obj,$(CLI_MAIN)) $(CLI_OBJS) $(PROTO_OBJS)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/libfwdd.a: $(DAEMON_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/libfwdcli.a: $(CLI_OBJS)
	@rm -f $@
	ar rcs $@ $^

# Unit tests: tests/unit/cli_*_test.c link the CLI objects, the others the
# daemon's (whole archive, so handlers registered from constructors exist).
$(BUILD)/tests/unit/cli_%_test: tests/unit/cli_%_test.c $(BUILD)/libfwdcli.a $(PROTO_OBJS) $(PROTO_HDR)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -Icli $(CFLAGS) $(LDFLAGS) -o $@ $< \
		-Wl,--whole-archive $(BUILD)/libfwdcli.a -Wl,--no-whole-archive $(PROTO_OBJS) \
		$(CMOCKA_LIBS) $(LDLIBS)

$(BUILD)/tests/unit/%_test: tests/unit/%_test.c $(BUILD)/libfwdd.a $(PROTO_OBJS) $(PROTO_HDR)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< \
		-Wl,--whole-archive $(BUILD)/libfwdd.a -Wl,--no-whole-archive $(PROTO_OBJS) \
		$(CMOCKA_LIBS) $(LDLIBS)

unit-tests: $(UNIT_BINS)

# tests/smoke/punt_flood.c: the punt flood sender of punt_flood_test.sh
$(BUILD)/tests/punt_flood: tests/smoke/punt_flood.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $<

tests-build: all unit-tests $(BUILD)/tests/punt_flood

-include $(shell find $(BUILD)/obj $(BUILD)/tests -name '*.d' 2>/dev/null)

# ------------------------------------------------------------------- tests
# Everything from a fresh machine: packages, sanitized build, every suite.
# The builds use every CPU (CHECK_JOBS) even when make was started without -j.
CHECK_JOBS ?= $(shell nproc)
check:
	@$(MAKE) --no-print-directory deps
	@$(MAKE) --no-print-directory -j$(CHECK_JOBS) SAN=1 tests-build
	@$(MAKE) --no-print-directory -j$(CHECK_JOBS) fuzz-build
	@bash tests/run.sh build/san

demo:
	@$(MAKE) --no-print-directory deps
	@$(MAKE) --no-print-directory all
	@bash tests/demo.sh start

# How long FRR_PREFIXES (100,000) BGP routes take to reach fwd's FIB through FRR.
bench-frr:
	@$(MAKE) --no-print-directory deps
	@$(MAKE) --no-print-directory all
	@bash tests/bench/frr_table.sh

# The same with FRR: a BGP route arriving through zebra's FPM and traffic following it.
demo-frr:
	@$(MAKE) --no-print-directory deps
	@$(MAKE) --no-print-directory all
	@bash tests/demo_frr.sh

demo-stop:
	@bash tests/demo.sh stop

# -------------------------------------------------------------- benchmarks
# tests/bench/bench.py (see its header). Packages only the benchmarks need:
BENCH_PKGS := dpdk dpdk-dev dpdk-doc libdpdk-dev libsystemd-dev python3-scapy \
	python3-matplotlib valgrind make gcc pkg-config patch wrk nginx-light \
	openvswitch-switch-dpdk
BENCH_DIR := $(BUILD)/bench
L3FWD_SRC := /usr/share/dpdk/examples

bench-deps:
	@missing=$$(for p in $(BENCH_PKGS); do \
		dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'ok installed' || echo $$p; \
	done); \
	if [ -n "$$missing" ]; then \
		echo "bench-deps: installing" $$missing; \
		$(APT_GET) update -qq && $(APT_GET) install -y -qq \
			--no-install-recommends $$missing >/dev/null || exit 1; \
	fi

$(BENCH_DIR)/route_churn: tests/bench/route_churn.c $(PROTO_OBJS) $(PROTO_HDR)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $< $(PROTO_OBJS) $(shell pkg-config --libs libprotobuf-c) -lm

# tests/bench/fib6_bench.c: the IPv6 RIB and FIB alone (load time and memory
# of a table, instructions of a lookup against rte_lpm6 under callgrind).
FIB6_BENCH_OBJS := $(call obj,daemon/route/fib6.c daemon/ip6/rib6.c)
$(BENCH_DIR)/fib6_bench: tests/bench/fib6_bench.c $(FIB6_BENCH_OBJS) $(PROTO_OBJS) $(PROTO_HDR)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(FIB6_BENCH_OBJS) $(PROTO_OBJS) $(LDLIBS)

# tests/bench/vrf_mem.c: the DPDK memory of the default VRF's tables and of
# VRFs in the small layout (doc/performance.md, "VRFs").
VRF_MEM_OBJS := $(call obj,daemon/ip4/fib.c daemon/route/fib6.c)
$(BENCH_DIR)/vrf_mem: tests/bench/vrf_mem.c $(VRF_MEM_OBJS) $(PROTO_OBJS) $(PROTO_HDR)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(VRF_MEM_OBJS) $(PROTO_OBJS) $(LDLIBS)

# tests/bench/flowgen.c: the flows group's hot source (a pcap replayed into a
# net_memif ring), linked as l3fwd is by default.
$(BENCH_DIR)/flowgen: tests/bench/flowgen.c
	@mkdir -p $(@D)
	$(CC) -std=gnu11 -O3 -g -Wall -Wextra -Werror -DALLOW_EXPERIMENTAL_API \
		$(shell pkg-config --cflags libdpdk) -o $@ $< $(shell pkg-config --libs libdpdk)

# tests/bench/xcpu.c: a cache line's round trip between two CPUs (the flows
# group checks with it that the host left flowgen's CPU near the program's).
$(BENCH_DIR)/xcpu: tests/bench/xcpu.c
	@mkdir -p $(@D)
	$(CC) -std=gnu11 -O2 -Wall -Wextra -Werror -pthread -o $@ $<

# DPDK's l3fwd example, copied from dpdk-doc, patched to run on virtual
# devices (tests/bench/l3fwd.patch) and built against the installed DPDK as
# its Makefile builds it by default (shared libraries: build/l3fwd) and also
# linked statically (build/l3fwd-static, every driver; -lsystemd wants
# libsystemd-dev), as fwd-daemon is.
L3FWD_BINS := $(BENCH_DIR)/l3fwd/build/l3fwd $(BENCH_DIR)/l3fwd/build/l3fwd-static
$(L3FWD_BINS) &: tests/bench/l3fwd.patch
	@rm -rf $(BENCH_DIR)/l3fwd $(BENCH_DIR)/common
	@mkdir -p $(BENCH_DIR)
	cp -r $(L3FWD_SRC)/l3fwd $(L3FWD_SRC)/common $(BENCH_DIR)/
	patch -s -p1 -d $(BENCH_DIR)/l3fwd <tests/bench/l3fwd.patch
	CFLAGS=-g $(MAKE) -s -C $(BENCH_DIR)/l3fwd
	CFLAGS=-g $(MAKE) -s -C $(BENCH_DIR)/l3fwd build/l3fwd-static

bench-build: all $(BENCH_DIR)/route_churn $(BENCH_DIR)/fib6_bench $(BENCH_DIR)/vrf_mem $(BENCH_DIR)/flowgen $(BENCH_DIR)/xcpu $(L3FWD_BINS)

bench:
	@$(MAKE) --no-print-directory deps bench-deps
	@$(MAKE) --no-print-directory bench-build
	@/usr/bin/python3 tests/bench/bench.py $(BUILD)

bench-callgrind:
	@$(MAKE) --no-print-directory deps bench-deps
	@$(MAKE) --no-print-directory bench-build
	@/usr/bin/python3 tests/bench/callgrind.py $(BUILD)

# tests/bench/iperf.py: iperf3 TCP h1 -> h2 through each forwarder on one
# namespace/veth topology, af_packet then af_xdp ports.
bench-iperf:
	@$(MAKE) --no-print-directory deps bench-deps
	@$(MAKE) --no-print-directory all $(BENCH_DIR)/l3fwd/build/l3fwd
	@/usr/bin/python3 tests/bench/iperf.py $(BUILD)

# tests/bench/e2e.py: iperf3 TCP and wrk (HTTP to nginx) client -> router ->
# server through the Linux kernel router, fwd on af_xdp and on af_packet.
bench-e2e:
	@$(MAKE) --no-print-directory deps bench-deps
	@$(MAKE) --no-print-directory all
	@/usr/bin/python3 tests/bench/e2e.py $(BUILD)

# ---------------------------------------------------------------- fuzzing
# libFuzzer targets tests/fuzz/*_fuzz.c, built with clang and ASan+UBSan
# against every daemon object but main.c. `make fuzz` runs each for
# FUZZ_SECONDS; `make check` runs each for 10 s.
FUZZ_CC	     ?= clang
FUZZ_SECONDS ?= 60
FUZZ_DIR     := build/fuzz
FUZZ_CFLAGS  := -std=gnu11 -g -O1 -Wall -Wextra -Werror -Wno-missing-field-initializers \
		-Wno-unused-command-line-argument -fno-omit-frame-pointer \
		-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined \
		$(PKG_CFLAGS)
FUZZ_SRCS    := $(sort $(wildcard tests/fuzz/*_fuzz.c))
FUZZ_BINS    := $(patsubst tests/fuzz/%.c,$(FUZZ_DIR)/%,$(FUZZ_SRCS))
fobj = $(patsubst %.c,$(FUZZ_DIR)/obj/%.o,$(1))
FUZZ_OBJS    := $(call fobj,$(filter-out $(DAEMON_MAIN),$(DAEMON_SRCS)) $(PROTO_SRCS)) \
		$(FUZZ_DIR)/obj/proto/fwd.pb-c.o

$(FUZZ_DIR)/obj/proto/fwd.pb-c.o: $(PROTO_GEN)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_CFLAGS) -c -o $@ $<

$(FUZZ_DIR)/obj/%.o: %.c $(PROTO_HDR)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_CFLAGS) -MMD -MP -c -o $@ $<

$(FUZZ_DIR)/%_fuzz: tests/fuzz/%_fuzz.c $(FUZZ_OBJS)
	$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< \
		-Wl,--whole-archive $(FUZZ_OBJS) -Wl,--no-whole-archive $(PKG_LIBS) -lm

fuzz-build: $(FUZZ_BINS)

# objects made through the pattern rule are intermediate: keep them
.SECONDARY: $(FUZZ_OBJS)

fuzz: deps-quiet
	@$(MAKE) --no-print-directory fuzz-build
	@bash tests/fuzz/run.sh $(FUZZ_SECONDS)

-include $(shell find $(FUZZ_DIR)/obj -name '*.d' 2>/dev/null)

# -------------------------------------------------------------------- soak
# tests/soak/soak.sh: the optimised build under traffic, route and ARP churn,
# reloads and CLI polling for SOAK_SECONDS; RSS, mempool and counters checked.
SOAK_SECONDS ?= 600

soak: deps-quiet
	@$(MAKE) --no-print-directory all
	@SOAK_SECONDS=$(SOAK_SECONDS) bash tests/soak/soak.sh

# --------------------------------------------------------------- hygiene
FMT_SRCS = $(shell git ls-files '*.c' '*.h' 2>/dev/null)

lint: $(PROTO_HDR)
	/usr/bin/python3 tests/lint/layers.py
	/usr/bin/python3 tests/lint/paths.py
	clang-format --dry-run --Werror $(FMT_SRCS)
	cppcheck --quiet --error-exitcode=1 --enable=warning,performance,portability \
		--inline-suppr --suppress=missingIncludeSystem --std=c11 \
		-Idaemon -Iproto -I$(BUILD)/proto -D__linux__ -DFWD_VERSION='"lint"' \
		-DPROTOBUF_C_VERSION_NUMBER=1004001 \
		daemon cli proto tests/unit

format:
	clang-format -i $(FMT_SRCS)

clean:
	rm -rf build

# ----------------------------------------------------------------- install
# What goes where: fwd-daemon(8), FILES. Always the optimised build (build/),
# whatever SAN says.
# /etc/fwd.yaml is installed only when absent, and removed by uninstall only
# while it is still the unedited sample.
BINDIR        = $(PREFIX)/bin
SBINDIR       = $(PREFIX)/sbin
LIBEXECDIR    = $(PREFIX)/libexec/fwd
UNITDIR       = $(PREFIX)/lib/systemd/system
SYSUSERSDIR   = $(PREFIX)/lib/sysusers.d
TMPFILESDIR   = $(PREFIX)/lib/tmpfiles.d
MANDIR        = $(PREFIX)/share/man
COMPLETIONDIR = $(PREFIX)/share/bash-completion/completions
CONFFILE      = /etc/fwd.yaml
INSTALLED = $(SBINDIR)/fwd-daemon $(BINDIR)/fwdctl $(LIBEXECDIR)/fwd-hugepages \
	$(UNITDIR)/fwd-daemon.service $(SYSUSERSDIR)/fwd.conf $(TMPFILESDIR)/fwd.conf \
	$(MANDIR)/man8/fwd-daemon.8 $(MANDIR)/man8/fwdctl.8 $(MANDIR)/man5/fwd.yaml.5 \
	$(COMPLETIONDIR)/fwdctl

install:
	@$(MAKE) --no-print-directory SAN=0 BUILD=build all
	install -D -m 0755 build/fwd-daemon $(DESTDIR)$(SBINDIR)/fwd-daemon
	install -D -m 0755 build/fwdctl $(DESTDIR)$(BINDIR)/fwdctl
	install -D -m 0755 systemd/fwd-hugepages $(DESTDIR)$(LIBEXECDIR)/fwd-hugepages
	install -d -m 0755 $(DESTDIR)$(UNITDIR)
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@SBINDIR@|$(SBINDIR)|g' -e 's|@BINDIR@|$(BINDIR)|g' \
		-e 's|@LIBEXECDIR@|$(LIBEXECDIR)|g' systemd/fwd-daemon.service.in \
		>$(DESTDIR)$(UNITDIR)/fwd-daemon.service
	chmod 0644 $(DESTDIR)$(UNITDIR)/fwd-daemon.service
	install -D -m 0644 systemd/fwd.sysusers.conf $(DESTDIR)$(SYSUSERSDIR)/fwd.conf
	install -D -m 0644 systemd/fwd.tmpfiles.conf $(DESTDIR)$(TMPFILESDIR)/fwd.conf
	install -D -m 0644 daemon/fwd-daemon.8 $(DESTDIR)$(MANDIR)/man8/fwd-daemon.8
	install -D -m 0644 cli/fwdctl.8 $(DESTDIR)$(MANDIR)/man8/fwdctl.8
	install -D -m 0644 conf/fwd.yaml.5 $(DESTDIR)$(MANDIR)/man5/fwd.yaml.5
	install -D -m 0644 cli/fwdctl.bash-completion $(DESTDIR)$(COMPLETIONDIR)/fwdctl
	@if [ -e $(DESTDIR)$(CONFFILE) ]; then \
		echo "install: keeping the existing $(DESTDIR)$(CONFFILE)"; \
	else install -D -m 0644 conf/fwd.yaml $(DESTDIR)$(CONFFILE); fi
	@# on the live system: the fwd group now, and systemd told about the unit
	@if [ -z "$(DESTDIR)" ]; then \
		systemd-sysusers $(SYSUSERSDIR)/fwd.conf 2>/dev/null || \
			getent group fwd >/dev/null || groupadd --system fwd; \
		if [ -d /run/systemd/system ]; then systemctl daemon-reload; fi; \
	fi

uninstall:
	rm -f $(addprefix $(DESTDIR),$(INSTALLED))
	-rmdir $(DESTDIR)$(LIBEXECDIR) 2>/dev/null
	@if cmp -s conf/fwd.yaml $(DESTDIR)$(CONFFILE); then rm -f $(DESTDIR)$(CONFFILE); \
	elif [ -e $(DESTDIR)$(CONFFILE) ]; then \
		echo "uninstall: keeping the edited $(DESTDIR)$(CONFFILE)"; fi
	@if [ -z "$(DESTDIR)" ] && [ -d /run/systemd/system ]; then systemctl daemon-reload; fi

# ---------------------------------------------------------- Debian package
# debian/rules builds and installs through the targets above (PREFIX=/usr).
DEB_BUILD_PKGS := debhelper dpkg-dev lintian

deb:
	@$(MAKE) --no-print-directory deps DEB_PKGS="$(DEB_PKGS) $(DEB_BUILD_PKGS)"
	@bash tests/deb/build.sh

check-deb:
	@$(MAKE) --no-print-directory deps DEB_PKGS="$(DEB_PKGS) $(DEB_BUILD_PKGS)"
	@bash tests/deb/deb_test.sh
