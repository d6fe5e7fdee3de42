import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { AddressPolicy, type HostResolver } from '../../src/net/address-policy.js';
import { AddressNotAllowed, HostUnresolvable } from '../../src/net/errors.js';
import { classifyAddress } from '../../src/net/ip-address.js';

/** DNS as a table: names not listed do not exist. */
function tableResolver(table: Record<string, string[]>): HostResolver {
  return async (hostname) => {
    const answer = table[hostname];
    if (!answer) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return answer;
  };
}

const publicDns = tableResolver({ 'example.com': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'] });

async function refusal(policy: AddressPolicy, url: string): Promise<AddressNotAllowed> {
  const error = await policy.check(url).then(
    (checked) => new Error(`expected ${url} to be refused, it passed as ${checked.url}`),
    (caught: unknown) => caught,
  );
  expect(error, url).toBeInstanceOf(AddressNotAllowed);
  return error as AddressNotAllowed;
}

describe('address policy: refused before anything loads', () => {
  const policy = new AddressPolicy({ resolver: publicDns });

  const loopbackSpellings = [
    'http://127.0.0.1/',
    'http://127.1/',
    'http://2130706433/',
    'http://0x7f000001/',
    'http://0x7f.1/',
    'http://0177.0.0.1/',
    'http://017700000001/',
    'http://127.000.000.001/',
    'http://[::1]/',
    'http://[0:0:0:0:0:0:0:1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:7f00:1]/',
    'http://[::127.0.0.1]/',
    'http://[64:ff9b::127.0.0.1]/',
    'http://[2002:7f00:1::]/',
    'http://localhost/',
    'http://localhost./',
    'http://LOCALHOST:8080/',
    'http://api.localhost/',
    'http://１２７.０.０.１/',
    'http://%31%32%37.0.0.1/',
    'http://127.0.0.1%2e/',
    'https://user:pass@127.0.0.1:443/',
  ];
  it.each(loopbackSpellings)('refuses loopback spelled %s', async (url) => {
    const error = await refusal(policy, url);
    expect(error.message).toMatch(/loopback|local or internal/);
  });

  const privateTargets: Array<[string, RegExp]> = [
    ['http://10.0.0.1/', /private network/],
    ['http://172.16.5.4/', /private network/],
    ['http://172.31.255.255/', /private network/],
    ['http://192.168.1.1/', /private network/],
    ['http://[fd12:3456::1]/', /private network/],
    ['http://[fc00::1]/', /private network/],
    ['http://169.254.1.1/', /link-local/],
    ['http://[fe80::1]/', /link-local/],
    ['http://100.64.0.1/', /carrier-grade NAT/],
    ['http://100.127.255.254/', /carrier-grade NAT/],
    ['http://224.0.0.1/', /multicast/],
    ['http://[ff02::1]/', /multicast/],
    ['http://0.0.0.0/', /unspecified/],
    ['http://0/', /unspecified/],
    ['http://[::]/', /unspecified/],
    ['http://255.255.255.255/', /reserved/],
    ['http://192.0.2.10/', /reserved/],
    ['http://[2001:db8::1]/', /reserved/],
    ['http://[::ffff:10.1.2.3]/', /private network/],
    ['http://[64:ff9b::c0a8:101]/', /private network/],
  ];
  it.each(privateTargets)('refuses %s', async (url, reason) => {
    expect((await refusal(policy, url)).message).toMatch(reason);
  });

  const metadata = [
    'http://169.254.169.254/latest/meta-data/',
    'http://[fd00:ec2::254]/',
    'http://metadata.google.internal/computeMetadata/v1/',
    'http://metadata.google.internal./',
    'http://metadata/',
    'http://100.100.100.200/',
    'http://169.254.170.2/v2/credentials',
    'http://[::ffff:169.254.169.254]/',
    'http://[::ffff:a9fe:a9fe]/',
    'http://[64:ff9b::a9fe:a9fe]/',
  ];
  it.each(metadata)('refuses the cloud metadata endpoint %s', async (url) => {
    expect((await refusal(policy, url)).message).toMatch(/metadata/);
  });

  const schemes = [
    'file:///etc/passwd',
    'ftp://example.com/',
    'javascript:alert(1)',
    'data:text/html,<p>hi</p>',
    'ws://example.com/',
    'gopher://example.com/',
    'chrome://settings/',
    'about:blank',
    'view-source:http://example.com/',
    'blob:http://example.com/uuid',
  ];
  it.each(schemes)('refuses the non-http(s) URL %s', async (url) => {
    expect((await refusal(policy, url)).message).toMatch(/Only http and https/);
  });

  it('refuses text that is not an absolute URL', async () => {
    expect((await refusal(policy, '/relative/path')).message).toMatch(/not a valid absolute URL/);
    expect((await refusal(policy, 'http://1.2.3.256/')).message).toMatch(/not a valid absolute URL/);
  });
});

describe('address policy: resolved addresses', () => {
  it('refuses a name that resolves to loopback, or to any private address among public ones', async () => {
    const policy = new AddressPolicy({
      resolver: tableResolver({ 'rebind.test': ['127.0.0.1'], 'mixed.test': ['93.184.215.14', '10.0.0.7'] }),
    });
    expect((await refusal(policy, 'http://rebind.test/')).message).toBe('rebind.test does not resolve to an address that may be loaded');
    const mixed = await refusal(policy, 'https://mixed.test/');
    expect(mixed.message).toBe('mixed.test does not resolve to an address that may be loaded');
    expect(mixed.detail).toBe('resolves to 10.0.0.7, a private network address');
  });

  it('passes a public name and hands back every checked address and the canonical URL', async () => {
    const policy = new AddressPolicy({ resolver: publicDns });
    const checked = await policy.check('HTTP://Example.COM:80/a b?q=1#frag');
    expect(checked).toEqual({
      url: 'http://example.com/a%20b?q=1#frag',
      hostname: 'example.com',
      port: 80,
      addresses: ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
    });
  });

  it('passes public IP literals, IPv4-mapped public addresses included, without DNS', async () => {
    const policy = new AddressPolicy({ resolver: tableResolver({}) });
    expect((await policy.check('http://8.8.8.8/')).addresses).toEqual(['8.8.8.8']);
    expect((await policy.check('https://[2606:4700:4700::1111]/')).addresses).toEqual(['2606:4700:4700::1111']);
    expect((await policy.check('http://[::ffff:8.8.8.8]/')).url).toBe('http://[::ffff:808:808]/');
  });

  it('refuses a name that does not resolve exactly as one that resolves to a refused address, so callers cannot map internal names', async () => {
    const policy = new AddressPolicy({ resolver: tableResolver({ 'intranet.test': ['10.1.2.3'] }) });
    const unknown = await refusal(policy, 'https://nowhere.test/');
    const internal = await refusal(policy, 'https://intranet.test/');
    expect(unknown).toBeInstanceOf(HostUnresolvable);
    expect(unknown.message.replace('nowhere.test', 'NAME')).toBe(internal.message.replace('intranet.test', 'NAME'));
    expect(unknown.detail).toMatch(/could not be resolved/);
  });
});

describe('address policy: loosening for development and tests', () => {
  it('exempts exactly the listed host:port, in any spelling of that host', async () => {
    const policy = new AddressPolicy({ allowPrivateHosts: ['127.0.0.1:8080', 'localhost:3000'], resolver: tableResolver({ localhost: ['127.0.0.1'] }) });
    expect((await policy.check('http://127.1:8080/x')).url).toBe('http://127.0.0.1:8080/x');
    expect((await policy.check('http://localhost.:3000/')).addresses).toEqual(['127.0.0.1']);
    await refusal(policy, 'http://127.0.0.1:8081/');
    await refusal(policy, 'http://localhost:3001/');
    await refusal(policy, 'file:///etc/passwd');
  });

  it('allows private networks when told to, but never cloud metadata', async () => {
    const policy = new AddressPolicy({ allowPrivateNetworks: true, resolver: tableResolver({ localhost: ['127.0.0.1'] }) });
    expect((await policy.check('http://localhost:5000/')).addresses).toEqual(['127.0.0.1']);
    expect((await policy.check('http://192.168.0.10/')).addresses).toEqual(['192.168.0.10']);
    await refusal(policy, 'http://169.254.169.254/');
    await refusal(policy, 'http://metadata.google.internal/');
    await refusal(policy, 'http://[fd00:ec2::254]/');
  });

  it('reads ALLOW_PRIVATE_HOSTS and ALLOW_PRIVATE_NETWORKS from the environment, refusing malformed entries', () => {
    const config = loadConfig({ ALLOW_PRIVATE_HOSTS: '127.0.0.1:8080, [::1]:9000', ALLOW_PRIVATE_NETWORKS: 'true' });
    expect(config.egress).toMatchObject({ allowPrivateNetworks: true, allowPrivateHosts: ['127.0.0.1:8080', '[::1]:9000'] });
    expect(loadConfig({}).egress).toMatchObject({ allowPrivateNetworks: false, allowPrivateHosts: [] });
    expect(() => loadConfig({ ALLOW_PRIVATE_HOSTS: 'intranet.example' })).toThrow(ConfigError);
  });
});

describe('address classification', () => {
  it.each([
    ['93.184.215.14', 'public'],
    ['1.1.1.1', 'public'],
    ['2606:4700:4700::1111', 'public'],
    ['::ffff:8.8.8.8', 'public'],
    ['127.255.255.254', 'loopback'],
    ['::1', 'loopback'],
    ['169.254.169.254', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['64:ff9b:1::1', 'reserved'],
    ['2001::1', 'reserved'],
    ['4000::1', 'reserved'],
    ['fe80::1%eth0', 'link-local'],
  ])('%s is %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });
});
