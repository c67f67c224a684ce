/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Bad config files under tests/unit/data/config/bad/ and the first error each
 * must produce: its exact position and a part of its message.
 */
#ifndef CONFIG_BAD_CASES_H
#define CONFIG_BAD_CASES_H

struct bad_case {
	const char *file;
	unsigned line, col;
	const char *msg;
};

static struct bad_case bad_cases[] = {
	/* YAML level */
	{ "empty.yaml", 1, 1, "no ports configured (the file is empty)" },
	{ "comments_only.yaml", 1, 1, "no ports configured" },
	{ "syntax_error.yaml", 3, 1, "syntax error: did not find expected ',' or '}'" },
	{ "syntax_indent.yaml", 3, 12, "syntax error: mapping values are not allowed" },
	{ "tab_indent.yaml", 3, 1, "YAML allows no tabs" },
	{ "multi_doc.yaml", 3, 1, "only one YAML document is allowed" },
	{ "alias.yaml", 3, 68, "YAML aliases are not allowed" },
	{ "anchor.yaml", 2, 5, "YAML anchors are not allowed (&p0)" },
	{ "tag.yaml", 2, 11, "YAML tags are not allowed" },
	{ "deep.yaml", 1, 23, "nested too deeply" },
	{ "nul_escape.yaml", 2, 13, "ports[0].name: contains a NUL character" },
	{ "control_char.yaml", 2, 25, "ports[0].device: contains a control character" },
	{ "key_not_scalar.yaml", 2, 41, "ports[0]: keys must be plain strings" },
	/* schema */
	{ "unknown_key.yaml", 4, 5, "ports[0]: unknown key 'mtuu' (did you mean 'mtu'?)" },
	{ "unknown_section.yaml", 1, 1, "unknown key 'neighbours' (did you mean 'neighbors'?)" },
	{ "duplicate_key.yaml", 5, 5, "ports[0]: duplicate key 'mtu' (first at line 4)" },
	{ "duplicate_section.yaml", 5, 1, "duplicate key 'dataplane'" },
	{ "wrong_type.yaml", 2, 3, "ports: expected a list, got a mapping" },
	{ "wrong_type_scalar.yaml", 1, 7, "dpdk: expected a mapping, got a single value" },
	{ "wrong_type_list_for_scalar.yaml", 2, 13,
	  "ports[0].name: expected a string, got a list" },
	{ "top_level_list.yaml", 1, 1, "top level: expected a mapping, got a list" },
	{ "args_not_list.yaml", 2, 9, "dpdk.args: expected a list" },
	{ "missing_required.yaml", 2, 5, "ports[0]: missing required key 'device'" },
	{ "missing_value.yaml", 3, 12, "ports[0].device: expected a string, got an empty value" },
	{ "empty_map.yaml", 1, 1, "missing required key 'ports'" },
	{ "no_ports.yaml", 1, 8, "ports: at least one port must be configured" },
	{ "too_many_ports.yaml", 34, 5, "ports: too many entries (at most 32)" },
	{ "out_of_range.yaml", 6, 10, "ports[1].mtu: 70000 is out of range (68..9600)" },
	{ "not_a_number.yaml", 2, 10,
	  "dataplane.burst: expected a decimal number (1..512), got '1e3'" },
	{ "hex_number.yaml", 2, 10, "got '0x10'" },
	{ "quoted_number.yaml", 2, 10, "got a quoted string '32'" },
	{ "negative.yaml", 2, 14, "dpdk.memory_mb: -1 is out of range (64..1048576)" },
	{ "bad_bool.yaml", 2, 14, "dpdk.hugepages: expected true or false, got 'yes'" },
	{ "bad_mode.yaml", 2, 47, "unknown value 'routed' (expected l3, xconnect or bridge)" },
	{ "too_long_name.yaml", 2, 13, "is too long (32 characters, at most 31)" },
	{ "bad_name_chars.yaml", 2, 13, "ports[0].name: invalid value 'p 0'" },
	{ "bad_ipv4.yaml", 9, 16, "neighbors[0].address: '10.0.0.256' is not an IPv4 address" },
	{ "bad_ipv4_short.yaml", 9, 31, "routes[0].via: '192.0.2' is not an IPv4 address" },
	{ "bad_ipv4_octal.yaml", 9, 31, "'192.0.2.010' is not an IPv4 address" },
	{ "bad_prefix.yaml", 4, 17, "ports[0].addresses[0]: '10.0.0.1/33' is not an IPv4 address" },
	{ "bad_prefix_nolen.yaml", 4, 17, "expected A.B.C.D/N" },
	{ "route_no_len.yaml", 4, 15, "routes[0].prefix: '198.51.100.1' is not an IPv4 prefix" },
	{ "route_host_bits.yaml", 9, 15,
	  "routes[0].prefix: 198.51.100.7/24 has host bits set (the prefix is 198.51.100.0/24)" },
	{ "bad_mac.yaml", 9, 31, "neighbors[0].mac: '02:00:00:00:00' is not a MAC address" },
	{ "bad_lcores.yaml", 2, 11, "dpdk.lcores: invalid value '(0-3)@1'" },
	{ "lcores_reversed.yaml", 2, 11, "a range must go upwards" },
	{ "lcores_dup.yaml", 2, 11, "an lcore is listed twice" },
	{ "lcores_big.yaml", 2, 11, "lcore ids must be below 128" },
	{ "lcores_one.yaml", 2, 11, "at least 2 lcores are needed" },
	{ "socket_relative.yaml", 2, 11, "control.socket: invalid value 'run/fwd.sock'" },
	{ "socket_too_long.yaml", 2, 11, "is too long (115 characters, at most 107)" },
	{ "file_prefix_chars.yaml", 2, 16, "dpdk.file_prefix: invalid value 'fwd/../x'" },
	{ "args_driver.yaml", 2, 16,
	  "dpdk.args[1]: invalid value '-d': -d (load a driver library) is not supported" },
	{ "metrics_bad.yaml", 2, 12, "expected A.B.C.D:PORT" },
	{ "metrics_port.yaml", 2, 12, "control.metrics: invalid value '127.0.0.1:65536'" },
	{ "many_errors.yaml", 2, 46, "ports[0].mtu: 0 is out of range" },
	/* cross references */
	{ "dup_port_name.yaml", 3, 13,
	  "ports[1].name: duplicate port name 'p0' (first at line 2)" },
	{ "dup_device.yaml", 3, 25, "device '0000:03:00.0' is already used by port 'p0'" },
	{ "dangling_peer.yaml", 2, 68, "ports[0].peer: no such port 'p3'" },
	{ "non_mutual_peer.yaml", 2, 68, "cross-connects must be mutual" },
	{ "self_peer.yaml", 2, 68, "a port cannot be its own peer" },
	{ "peer_not_xconnect.yaml", 2, 47, "only xconnect ports have a peer" },
	{ "xconnect_no_peer.yaml", 2, 5, "ports[0]: an xconnect port needs a 'peer'" },
	{ "dangling_bridge.yaml", 2, 68, "ports[0].bridge: no such bridge 'br1'" },
	{ "bridge_no_bridge.yaml", 2, 5, "a bridge port needs a 'bridge'" },
	{ "dup_bridge.yaml", 5, 13, "bridges[1].name: duplicate bridge name 'br0'" },
	{ "addresses_not_l3.yaml", 2, 85, "only l3 ports have addresses" },
	{ "dup_address.yaml", 3, 67, "address 10.0.0.1 is already configured (on port p0)" },
	{ "network_address.yaml", 2, 53, "is the network address of its subnet" },
	/* the daemon used to refuse these at start-up while --check passed them */
	{ "subnet_two_ports.yaml", 3, 53, "subnet 10.0.0.0/24 is already connected on port p0" },
	{ "neigh_bcast.yaml", 6, 16, "10.0.0.255 is not a host address on p0" },
	{ "neigh_network.yaml", 6, 16, "10.0.0.0 is not a host address on p0" },
	{ "route_connected.yaml", 9, 15, "10.0.0.0/24 is the connected subnet of port p0" },
	{ "route_via_offlink.yaml", 9, 37,
	  "routes[0].via: gateway 10.0.1.2 is not on a connected subnet" },
	{ "route_no_via.yaml", 9, 5, "routes[0]: missing 'via'" },
	{ "route_blackhole_via.yaml", 9, 54, "a blackhole route has no next hop" },
	{ "route_dup.yaml", 11, 15, "duplicate route for 198.51.100.0/24 (first at line 9)" },
	{ "route_dev_wrong.yaml", 9, 37, "gateway 10.0.0.2 is not on a connected subnet of p1" },
	{ "route_via_own.yaml", 9, 37, "is one of our own addresses (on port p0)" },
	{ "neigh_unknown_port.yaml", 9, 58, "neighbors[0].port: no such port 'p9'" },
	{ "neigh_offlink.yaml", 9, 16, "is not on a connected subnet of p0" },
	{ "neigh_dup.yaml", 10, 16, "duplicate neighbour 10.0.0.2 on port 'p0'" },
	{ "neigh_multicast_mac.yaml", 9, 31, "is not a unicast MAC address" },
	{ "neigh_max_not_below.yaml", 3, 14,
	  "dataplane.neigh_max: 2048 must be below dataplane.nexthops (2048), so that routes "
	  "always find room for their gateways" },
	{ "many_semantic_errors.yaml", 3, 13, "duplicate port name 'p0'" },
	/* IPv6 */
	{ "ip6_anycast.yaml", 2, 50,
	  "ports[0].addresses[0]: 2001:db8:1::/64 is the subnet-router anycast address of its "
	  "prefix (RFC 4291 2.6.1)" },
	{ "ip6_linklocal_addr.yaml", 2, 50,
	  "ports[0].addresses[0]: fe80::1/64 is link-local (each port has its own, derived from "
	  "its MAC)" },
	{ "ip6_neigh_ours.yaml", 4, 16,
	  "neighbors[0].address: 2001:db8:1::1 is one of our own addresses (on port p0)" },
	{ "ip6_not_address.yaml", 4, 16,
	  "neighbors[0].address: '2001:db8:1::zz' is not an IPv6 address" },
	{ "ip6_prefix_len.yaml", 2, 50,
	  "ports[0].addresses[0]: '2001:db8:1::1/129' is not an IPv6 address with prefix length "
	  "(expected X:X::X/N, N = 0..128)" },
	{ "ip6_ra_not_l3.yaml", 2, 68, "ports[0].ra: only l3 ports send router advertisements" },
	{ "ip6_route_host_bits.yaml", 4, 15,
	  "routes[0].prefix: 2001:db8:5::1/48 has host bits set (the prefix is 2001:db8:5::/48)" },
	{ "ip6_same_prefix.yaml", 3, 50,
	  "ports[1].addresses[0]: prefix 2001:db8:1::/64 is already connected on port p0" },
	{ "ip6_via_family.yaml", 4, 39, "routes[0].via: an IPv6 route needs an IPv6 next hop" },
	{ "ip6_via_linklocal_nodev.yaml", 4, 28,
	  "routes[0].via: gateway fe80::1 is link-local: say which port (dev)" },
	{ "ip6_via_offlink.yaml", 4, 39,
	  "routes[0].via: gateway 2001:db8:9::1 is not on a connected prefix" },
};

#endif
