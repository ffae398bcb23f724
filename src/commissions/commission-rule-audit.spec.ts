import { AUDIT_ACTIONS, LEGACY_AUDIT_ACTIONS } from '../audit/audit-actions';
import type { AuditAction } from '../audit/audit-actions';
import { fromAudit } from '../event-port/event-catalogue';

/**
 * Audit actions are `<resource>.<verb>` in the present tense (`vendor.update`); outbound events
 * are past tense (`vendor.updated`). Commission rules follow both (ADR 0051's later rename).
 */
describe('commission rule audit actions and their events', () => {
  it('every action written today is present tense (no past-tense verb outside the legacy names)', () => {
    const legacy = new Set<string>(LEGACY_AUDIT_ACTIONS);
    const past = AUDIT_ACTIONS.filter((a) => !legacy.has(a) && /ed$/.test(a.split('.').pop()!));
    expect(past).toEqual([]);
    expect(AUDIT_ACTIONS).toEqual(
      expect.arrayContaining(['commission_rule.create', 'commission_rule.update', 'commission_rule.delete']),
    );
  });

  it('each maps to the catalogue event; a record written under the old name still emits', () => {
    const cases: Array<[AuditAction, string]> = [
      ['commission_rule.create', 'commission_rule.created'],
      ['commission_rule.update', 'commission_rule.updated'],
      ['commission_rule.delete', 'commission_rule.deleted'],
      ['commission_rule.created', 'commission_rule.created'],
      ['commission_rule.updated', 'commission_rule.updated'],
      ['commission_rule.deleted', 'commission_rule.deleted'],
    ];
    for (const [action, event] of cases) expect(fromAudit({ action, after: {} })).toBe(event);
  });
});
