import assert from "node:assert/strict";
import { clientAddress, ipv6Groups } from "./ip_network.ts";

Deno.test("clientAddress: IPv4 is keyed by address alone", () => {
  assert.deepEqual(clientAddress("192.0.2.7"), { address: "192.0.2.7", network: null });
  assert.deepEqual(clientAddress("unknown"), { address: "unknown", network: null });
});

Deno.test("clientAddress: IPv6 by its full address and its /64, however it is spelled", () => {
  const expected = {
    address: "2001:0db8:0001:0002:0000:0000:0000:0007",
    network: "2001:0db8:0001:0002::/64",
  };
  for (const spelling of ["2001:db8:1:2::7", "2001:DB8:1:2:0:0:0:7", "[2001:db8:1:2::7]"]) {
    assert.deepEqual(clientAddress(spelling), expected, spelling);
  }
  assert.equal(clientAddress("2001:db8:1:2:ffff:1:2:3").network, expected.network);
  assert.notEqual(clientAddress("2001:db8:1:3::7").network, expected.network);
  assert.equal(clientAddress("fe80::1%eth0").network, "fe80:0000:0000:0000::/64");
  assert.equal(clientAddress("::1").address, "0000:0000:0000:0000:0000:0000:0000:0001");
});

Deno.test("clientAddress: an IPv4-mapped IPv6 address is its IPv4 address", () => {
  assert.deepEqual(clientAddress("::ffff:192.0.2.7"), { address: "192.0.2.7", network: null });
  assert.deepEqual(clientAddress("::ffff:c000:207"), { address: "192.0.2.7", network: null });
});

Deno.test("ipv6Groups refuses what is not an IPv6 address", () => {
  for (
    const bad of ["1:2:3", "1::2::3", "1:2:3:4:5:6:7:8:9", "1:2:3:4:5:6:7::8", "12345::", "g::1"]
  ) {
    assert.equal(ipv6Groups(bad), null, bad);
  }
  assert.deepEqual(ipv6Groups("::"), [0, 0, 0, 0, 0, 0, 0, 0]);
});
