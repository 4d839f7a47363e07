import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { reportLoopbackSteering } from './bench-util';

describe('loopback steering check', () => {
  afterEach(() => vi.restoreAllMocks());

  it('warns only when loopback packets are steered to other cores', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'hunch-rps-'));
    try {
      const file = path.join(dir, 'rps_cpus');
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
      for (const idle of ['0\n', '00000000,00000000\n']) {
        await writeFile(file, idle);
        reportLoopbackSteering(file);
      }
      reportLoopbackSteering(path.join(dir, 'missing'));
      expect(warn).not.toHaveBeenCalled();
      await writeFile(file, '2\n');
      reportLoopbackSteering(file);
      expect(warn).toHaveBeenCalledTimes(1);
      expect(warn.mock.calls[0]?.[0]).toContain(`${file} is 2`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
