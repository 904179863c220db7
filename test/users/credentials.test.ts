import {
  checkChosenToken,
  formatToken,
  hashSecret,
  normalizeAppPassword,
  parseToken,
  sameHash,
} from '../../src/users/credentials';
import { canEditRecord, canManageTerms } from '../../src/users/permissions';
import { ROLES } from '../../src/users/roles';
import { ANONYMOUS, viewerFor } from '../../src/users/viewer';

describe('credential formats', () => {
  it('formats and parses cal_<id>_<secret> tokens, secrets with _ and - included', () => {
    const secret = 'Ab_-0123456789abcdefghijklmnopqrstuvwxyz_-_';
    expect(parseToken(formatToken(42, secret))).toEqual({ id: 42, secret });
    for (const bad of ['cal_x_abc', 'cal_1_short', 'xcal_1_' + secret, `cal__${secret}`, '']) {
      expect(parseToken(bad)).toBeNull();
    }
  });

  it('hashes with SHA-256 and compares hashes in constant time', () => {
    const hash = hashSecret('secret');
    expect(hash).toBe('2bb80d537b1da3e38bd30361aa855686bde0eacd7162fef6a25fe97bf527a25b');
    expect(sameHash(hash, hashSecret('secret'))).toBe(true);
    expect(sameHash(hash, hashSecret('Secret'))).toBe(false);
    expect(sameHash(hash, '')).toBe(false);
    expect(sameHash('', '')).toBe(false);
  });

  it('ignores the grouping spaces of application passwords', () => {
    expect(normalizeAppPassword(' abcd EFGH  1234\tijkl ')).toBe('abcdEFGH1234ijkl');
  });

  it('accepts chosen tokens of 20+ characters without spaces', () => {
    expect(() => checkChosenToken('x'.repeat(20))).not.toThrow();
    expect(() => checkChosenToken('x'.repeat(19))).toThrow('at least 20');
    expect(() => checkChosenToken(`${'x'.repeat(20)} y`)).toThrow('without spaces');
  });
});

describe('permissions', () => {
  const viewer = (role: (typeof ROLES)[number]) => viewerFor({ id: 7, login: role, role });
  const mine = (status: string) => ({ author_id: 7, status }) as never;
  const theirs = (status: string) => ({ author_id: 8, status }) as never;

  it('follows the contract table for every role', () => {
    const table = Object.fromEntries(
      ROLES.map((role) => [
        role,
        ['draft', 'pending', 'publish', 'future', 'private'].map((s) =>
          [mine(s), theirs(s)]
            .map((row) => (canEditRecord(viewer(role), row) ? 'y' : '-'))
            .join(''),
        ),
      ]),
    );
    expect(table).toEqual({
      administrator: ['yy', 'yy', 'yy', 'yy', 'yy'],
      editor: ['yy', 'yy', 'yy', 'yy', 'yy'],
      author: ['y-', 'y-', 'y-', 'y-', 'y-'],
      contributor: ['y-', 'y-', '--', '--', '--'],
      subscriber: ['--', '--', '--', '--', '--'],
    });
    expect(canEditRecord(ANONYMOUS, mine('draft'))).toBe(false);
    expect(ROLES.filter((role) => canManageTerms(viewer(role)))).toEqual([
      'administrator',
      'editor',
    ]);
  });
});
