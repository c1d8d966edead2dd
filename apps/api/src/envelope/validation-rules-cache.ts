import { getMetadataStorage } from 'class-validator';

type Storage = ReturnType<typeof getMetadataStorage>;
type Rules = ReturnType<Storage['getTargetValidationMetadatas']>;

const INSTALLED = Symbol('lnk.validationRulesCache');

/**
 * class-validator finds a DTO's rules anew at every `validate()`: it filters the class's own, walks every
 * class that has rules (an `instanceof` each, 36 classes here) for its ancestors', and groups the result
 * by property: 3% of a link creation's CPU, paid by every body and query the pipe checks. The rules come
 * from decorators, registered as the classes load, and do not change afterwards: this keeps each class's
 * answer, and forgets every answer whenever a rule is registered (a class loaded late, a schema added).
 *
 * Only the form the pipe uses is kept: a class (no schema by name), no groups, `always` and `strictGroups`
 * off; any other call goes to class-validator as it is. What is kept is what class-validator answered;
 * its validator only reads the lists and the grouping (ValidationExecutor.execute and whitelist).
 *
 * A patch of the library's internals, kept for its measured cost (docs/adr/2026-11-27-class-validator-rules-cache.md):
 * its spec fails on an upgrade of class-validator, or when validate() stops asking these methods.
 */
export function cacheValidationRules(storage: Storage = getMetadataStorage()): void {
  const patched = storage as Storage & { [INSTALLED]?: true };
  if (patched[INSTALLED]) return;
  patched[INSTALLED] = true;

  const findRules = storage.getTargetValidationMetadatas.bind(storage);
  const groupRules = storage.groupByPropertyName.bind(storage);
  let rulesOf = new WeakMap<object, Rules>();
  let groupsOf = new WeakMap<Rules, Record<string, Rules>>();
  const forget = () => {
    rulesOf = new WeakMap();
    groupsOf = new WeakMap();
  };

  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    if (typeof target !== 'function' || schema || always || strictGroups || (groups && groups.length))
      return findRules(target, schema, always, strictGroups, groups);
    let rules = rulesOf.get(target);
    if (!rules) {
      rules = findRules(target, schema, always, strictGroups, groups);
      rulesOf.set(target, rules);
    }
    return rules;
  };
  storage.groupByPropertyName = (rules) => {
    let grouped = groupsOf.get(rules);
    if (!grouped) {
      grouped = groupRules(rules);
      groupsOf.set(rules, grouped);
    }
    return grouped;
  };
  for (const method of ['addValidationMetadata', 'addConstraintMetadata', 'addValidationSchema'] as const) {
    const register = (storage[method] as (this: Storage, argument: never) => void).bind(storage);
    (storage as unknown as Record<string, (argument: never) => void>)[method] = (argument) => {
      forget();
      register(argument);
    };
  }
}
