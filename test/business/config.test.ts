import { describe, expect, it } from 'vitest';
import { ENV_HELP, loadConfig } from '../../src/config.js';

describe('business-area configuration', () => {
  it('has defaults for domain targets and the image provider timeout', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      dnsServers: [],
      siteCnameTarget: 'sites.sitegate.app',
      siteARecord: '192.0.2.10',
      imageProviderTimeoutMs: 30_000,
    });
    expect(c.imageProviderUrl).toBeUndefined();
  });

  it('parses DNS_SERVERS and normalises the CNAME target; refuses a bad A record', () => {
    const c = loadConfig({ DNS_SERVERS: ' 127.0.0.1:5353, 10.0.0.1 ,', SITE_CNAME_TARGET: 'Edge.Example.' });
    expect(c.dnsServers).toEqual(['127.0.0.1:5353', '10.0.0.1']);
    expect(c.siteCnameTarget).toBe('edge.example');
    expect(() => loadConfig({ SITE_A_RECORD: 'not-an-ip' })).toThrow(/SITE_A_RECORD/);
    expect(() => loadConfig({ IMAGE_PROVIDER_TIMEOUT_MS: '5' })).toThrow(/IMAGE_PROVIDER_TIMEOUT_MS/);
  });

  it('documents every new variable', () => {
    for (const k of [
      'DNS_SERVERS',
      'SITE_CNAME_TARGET',
      'SITE_A_RECORD',
      'IMAGE_PROVIDER_TIMEOUT_MS',
    ] as const) {
      expect(ENV_HELP[k]).toBeTruthy();
    }
  });
});
