import { describe, expect, it } from 'vitest';
import { checkUrl, isForbiddenAddress, pickAddress } from './policy.js';

const SSRF_URLS = [
  'https://127.0.0.1/hook',
  'https://[::1]/hook',
  'https://169.254.169.254/latest/meta-data',
  'https://10.1.2.3/',
  'https://172.16.0.1/',
  'https://172.31.255.254/',
  'https://192.168.1.1/',
  'https://0177.0.0.1/',
  'https://2130706433/',
  'https://[::ffff:127.0.0.1]/',
  'https://0x7f.1/',
  'https://0.0.0.0/',
  'https://[fd00:ec2::254]/',
  'https://[fe80::1]/',
  'https://localhost/',
];

describe('webhook URL policy (private targets not allowed)', () => {
  it.each(SSRF_URLS)('refuses %s', (raw) => {
    expect(checkUrl(raw, false)).toEqual({ problem: expect.stringMatching(/^url must not point at/) });
  });

  it('requires https and refuses credentials and non-URLs', () => {
    expect(checkUrl('http://hooks.example.com/', false)).toEqual({ problem: 'url must use https' });
    expect(checkUrl('ftp://hooks.example.com/', false)).toEqual({ problem: 'url must use https' });
    expect(checkUrl('not a url', false)).toEqual({ problem: 'url must be an absolute https URL' });
    expect(checkUrl('https://u:p@hooks.example.com/', false)).toEqual({ problem: 'url must not contain credentials' });
  });

  it('accepts public https URLs, by name or address', () => {
    expect(checkUrl('https://hooks.example.com/x?y=1', false)).toHaveProperty('url');
    expect(checkUrl('https://93.184.216.34/', false)).toHaveProperty('url');
    expect(checkUrl('https://172.32.0.1/', false)).toHaveProperty('url');
    expect(checkUrl('https://[2606:4700::1111]/', false)).toHaveProperty('url');
  });

  it('classifies addresses, IPv4-mapped IPv6 included; anything that is not an IP is forbidden', () => {
    for (const a of [
      '127.0.0.1',
      '::1',
      '169.254.169.254',
      '10.0.0.1',
      '172.16.5.5',
      '192.168.0.10',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:10.0.0.1',
      '100.64.0.1',
      '224.0.0.1',
      'fc00::1',
      'nonsense',
      '0177.0.0.1',
    ]) {
      expect(isForbiddenAddress(a), a).toBe(true);
    }
    for (const a of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '172.15.255.255', '::ffff:8.8.8.8']) expect(isForbiddenAddress(a), a).toBe(false);
  });

  it('refuses a name when any of its addresses is forbidden', () => {
    expect(
      pickAddress(
        [
          { address: '8.8.8.8', family: 4 },
          { address: '10.0.0.1', family: 4 },
        ],
        false,
      ),
    ).toEqual({
      problem: 'url host resolves to a forbidden address (10.0.0.1)',
    });
    expect(pickAddress([{ address: '8.8.8.8', family: 4 }], false)).toEqual({ address: { address: '8.8.8.8', family: 4 } });
    expect(pickAddress([], false)).toEqual({ problem: 'url host has no address' });
  });
});

describe('with WEBHOOKS_ALLOW_PRIVATE (local development and tests)', () => {
  it('allows plain http and private addresses', () => {
    expect(checkUrl('http://127.0.0.1:8080/hook', true)).toHaveProperty('url');
    expect(pickAddress([{ address: '127.0.0.1', family: 4 }], true)).toEqual({ address: { address: '127.0.0.1', family: 4 } });
  });
});
