/**
 * The defense-evasion rules that read "what does this command stop" share one grammar
 * (src/guard/predicates/defense-evasion.ts): every way of stopping, disabling or removing a
 * logging daemon, a security agent or a firewall must deny under its own rule, and the ways of
 * restarting, reloading or querying them must not.
 */
import { describe, expect, it } from 'vitest';
import { analyzer, CONTEXT } from '../helpers/analyzer.js';

const a = await analyzer();

/** Each service, the rule that must deny stopping it, and its launchd label on macOS where it has one. */
const SERVICES = [
  { name: 'auditd', rule: 'defense-evasion/auditing-or-logging-off' },
  { name: 'rsyslog', rule: 'defense-evasion/auditing-or-logging-off' },
  { name: 'falcon-sensor', rule: 'defense-evasion/security-tool-off' },
  { name: 'osqueryd', rule: 'defense-evasion/security-tool-off' },
  { name: 'firewalld', rule: 'defense-evasion/firewall-off' },
  { name: 'nftables', rule: 'defense-evasion/firewall-off' },
];

/** Spellings that stop, disable, mask, kill or uninstall NAME. */
const STOPS = [
  'systemctl stop NAME',
  'sudo systemctl disable --now NAME.service',
  'systemctl mask NAME',
  'systemctl kill NAME',
  'sudo service NAME stop',
  'rc-service NAME stop',
  'update-rc.d NAME disable',
  'chkconfig NAME off',
  'sysrc NAME_enable=NO',
  'sudo pkill NAME',
  'killall -9 NAME',
  'kill -9 $(pidof NAME)',
  'kill $(pgrep NAME)',
  'sudo kill -TERM $(cat /var/run/NAME.pid)',
  'sudo apt-get remove -y NAME',
  'sudo dnf erase NAME',
  'rpm -e NAME',
  'sudo dpkg --purge NAME',
  'sudo launchctl unload -w /Library/LaunchDaemons/NAME.plist',
  'sudo launchctl bootout system/NAME',
  "sh -c 'systemctl stop NAME'",
  'timeout 10 sudo systemctl stop NAME',
];

/** Spellings that restart, reload or query NAME, or stop it for the user's own session manager. */
const HARMLESS = [
  'systemctl restart NAME',
  'systemctl status NAME',
  'systemctl is-active NAME',
  'service NAME status',
  'sudo killall -HUP NAME',
  'pkill -USR1 NAME',
  'kill -0 $(pidof NAME)',
  'sudo apt-get install NAME',
  'systemctl --user stop NAME',
  'launchctl list NAME',
];

describe('stopping a logging daemon, a security agent or a firewall', () => {
  for (const { name, rule } of SERVICES) {
    for (const form of STOPS) {
      const cmd = form.replaceAll('NAME', name);
      it(`denies: ${cmd}`, () => {
        const v = a.analyze(cmd, CONTEXT);
        expect(v.level).toBe('deny');
        expect(v.findings.map((f) => f.rule)).toContain(rule);
      });
    }
    for (const form of HARMLESS) {
      const cmd = form.replaceAll('NAME', name);
      it(`does not match: ${cmd}`, () => {
        const v = a.analyze(cmd, CONTEXT);
        expect(v.findings.map((f) => f.rule)).not.toContain(rule);
      });
    }
  }

  it('stops of an ordinary service carry none of the three rules', () => {
    for (const form of STOPS) {
      const v = a.analyze(form.replaceAll('NAME', 'nginx'), CONTEXT);
      const rules = v.findings.map((f) => f.rule);
      expect(
        rules.some((r) => r.startsWith('defense-evasion/')),
        form,
      ).toBe(false);
    }
  });
});
