import { describe, expect, it } from "vitest";
import { judgeAddress, isPublicAddress } from "@/lib/net/address";

describe("public address rule", () => {
  it.each([
    "8.8.8.8",
    "1.1.1.1",
    "2606:4700::1111",
    "::ffff:8.8.8.8",
    "64:ff9b::808:808", // NAT64 of 8.8.8.8
    "2002:808:808::1", // 6to4 of 8.8.8.8
    "2001:0:4136:e378:8000:63bf:f7f7:f7f7", // Teredo: server 65.54.227.120, client 8.8.8.8
  ])("accepts public unicast %s", (ip) => {
    expect(judgeAddress(ip)).toEqual({ public: true });
  });

  it.each([
    ["127.0.0.1", "loopback"],
    ["10.1.2.3", "private"],
    ["172.16.5.4", "private"],
    ["192.168.1.1", "private"],
    ["169.254.169.254", "linkLocal"],
    ["100.64.0.1", "carrierGradeNat"],
    ["0.0.0.0", "unspecified"],
    ["255.255.255.255", "broadcast"],
    ["224.0.0.1", "multicast"],
    ["192.0.2.1", "reserved"],
    ["198.18.0.1", "reserved"],
    ["240.0.0.1", "reserved"],
    ["::1", "loopback"],
    ["::", "unspecified"],
    ["fc00::1", "uniqueLocal"],
    ["fd12:3456::1", "uniqueLocal"],
    ["fe80::1", "linkLocal"],
    ["fec0::1", "deprecatedSiteLocal"],
    ["ff02::1", "multicast"],
    ["2001:db8::1", "reserved"],
    ["::ffff:127.0.0.1", "ipv4_mapped:loopback"],
    ["::ffff:7f00:1", "ipv4_mapped:loopback"],
    ["::ffff:a9fe:a9fe", "ipv4_mapped:linkLocal"],
    ["::ffff:0:7f00:1", "ipv4_translated:loopback"],
    ["64:ff9b::7f00:1", "nat64:loopback"],
    ["64:ff9b::a00:1", "nat64:private"],
    ["64:ff9b:1::808:808", "rfc6052"], // local-use NAT64 (RFC 8215): never unwrapped
    ["2002:7f00:1::1", "6to4:loopback"],
    ["2002:a9fe:a9fe::", "6to4:linkLocal"],
    ["2001:0:4136:e378:8000:63bf:80ff:fffe", "teredo:loopback"], // client 127.0.0.1
    ["2001:0:a00:1:8000:63bf:f7f7:f7f7", "teredo:private"], // server 10.0.0.1
    ["::7f00:1", "reserved"], // IPv4-compatible
    ["4000::1", "not_global"],
  ])("rejects %s (%s)", (ip, range) => {
    expect(judgeAddress(ip)).toEqual({ public: false, range });
  });

  it.each(["not-an-ip", "0x7f.1", "2130706433", "127.1", "", "fe80::1%eth0", "1.2.3.4.5"])("rejects what is not a plain address: %j", (ip) => {
    expect(isPublicAddress(ip)).toBe(false);
  });

  it("reads bracketed IPv6 literals as URLs write them", () => {
    expect(isPublicAddress("[::1]")).toBe(false);
    expect(isPublicAddress("[2606:4700::1111]")).toBe(true);
  });
});
