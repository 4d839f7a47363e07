import { describe, expect, it } from 'vitest';
import { cpusIn } from './live-processes';

describe('CPU lists', () => {
  it('counts the CPUs a taskset list names', () => {
    expect(cpusIn('0')).toBe(1);
    expect(cpusIn('1-3')).toBe(3);
    expect(cpusIn('0,2-3')).toBe(3);
    expect(cpusIn('1,3,5-8')).toBe(6);
  });
});
