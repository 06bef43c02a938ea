import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configPath, loadConfig, setConfigValue, unsetConfigValue } from '../../src/config/config-file.js';
import { checkKey, parseSize, parseValue } from '../../src/config/config-keys.js';
import { CmvError } from '../../src/errors.js';

let dir: string;
let env: NodeJS.ProcessEnv;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cmv-config-'));
  env = { XDG_CONFIG_HOME: dir, HOME: join(dir, 'home') };
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function error(fn: () => unknown): CmvError {
  try {
    fn();
  } catch (e) {
    return e as CmvError;
  }
  throw new Error('expected an error');
}

describe('cmv config', () => {
  it('lives at $XDG_CONFIG_HOME/cmv/config.json, else ~/.config/cmv/config.json', () => {
    expect(configPath(env)).toBe(join(dir, 'cmv', 'config.json'));
    expect(configPath({ HOME: '/home/me' })).toBe('/home/me/.config/cmv/config.json');
  });

  it('gives every default when there is no file', async () => {
    const config = await loadConfig(env);
    expect(config.set).toEqual([]);
    expect(config.values).toMatchObject({ 'trim.threshold': 300, model: null, 'hook.growthBytes': 4 * 1024 * 1024, 'claude.binary': 'claude' });
  });

  it('writes a set value, keeps the others, and unset brings the default back', async () => {
    await setConfigValue('trim.threshold', parseValue('trim.threshold', '2500'), env);
    await setConfigValue('hook.growthBytes', parseValue('hook.growthBytes', '8MB'), env);
    expect(JSON.parse(readFileSync(configPath(env), 'utf8'))).toEqual({ 'trim.threshold': 2500, 'hook.growthBytes': 8 * 1024 * 1024 });
    expect((await loadConfig(env)).values['trim.threshold']).toBe(2500);
    expect(await unsetConfigValue('trim.threshold', env)).toMatchObject({ wasSet: true });
    expect((await loadConfig(env)).values['trim.threshold']).toBe(300);
    expect((await loadConfig(env)).set).toEqual(['hook.growthBytes']);
  });

  it('refuses bad values with the key, the reason and an example', () => {
    const e = error(() => parseValue('trim.threshold', 'lots'));
    expect(e.code).toBe('USAGE');
    expect(e.message).toBe('trim.threshold must be a number of characters (a whole number from 1 to 10000000), not "lots"');
    expect(e.hint).toBe('for example: cmv config set trim.threshold 2000');
    expect(error(() => parseValue('model', 'gpt-4')).message).toContain('names no Claude model');
    expect(parseValue('model', 'sonnet-4.5')).toBe('sonnet-4.5');
    expect(error(() => parseValue('claude.binary', '/no/such/claude')).message).toContain('does not exist');
    expect(error(() => parseValue('hook.snapshot', 'maybe')).message).toContain('true or false');
    expect(parseSize('512 KB')).toBe(512 * 1024);
    expect(() => parseSize('12 parsecs')).toThrow(/size such as/);
  });

  it('suggests the key meant', () => {
    const e = error(() => checkKey('threshold'));
    expect(e.message).toBe('no config key "threshold"');
    expect(e.hint).toContain('did you mean "trim.threshold"?');
  });

  it('leaves the "models" price table to the cost registry, and keeps it when a key is set or unset', async () => {
    const models = { 'opus-5': { input: 5, output: 25 } };
    mkdirSync(join(dir, 'cmv'), { recursive: true });
    writeFileSync(configPath(env), JSON.stringify({ models, model: 'sonnet-4.5' }));
    expect((await loadConfig(env)).values.model).toBe('sonnet-4.5');
    expect((await loadConfig(env)).set).toEqual(['model']);
    await setConfigValue('trim.threshold', 2000, env);
    await unsetConfigValue('model', env);
    expect(JSON.parse(readFileSync(configPath(env), 'utf8'))).toEqual({ 'trim.threshold': 2000, models });
  });

  it('names the file and the problem when the file is broken, and will not overwrite it', async () => {
    mkdirSync(join(dir, 'cmv'), { recursive: true });
    writeFileSync(configPath(env), '{"trim.threshold": 0}');
    await expect(loadConfig(env)).rejects.toMatchObject({ code: 'BAD_INPUT', message: expect.stringContaining(`${configPath(env)}: trim.threshold must be`) });
    writeFileSync(configPath(env), '{ not json');
    await expect(loadConfig(env)).rejects.toMatchObject({ code: 'BAD_INPUT', message: expect.stringContaining('is not valid JSON') });
    await expect(setConfigValue('model', 'opus-4.6', env)).rejects.toMatchObject({ code: 'BAD_INPUT' });
    expect(readFileSync(configPath(env), 'utf8')).toBe('{ not json');
    writeFileSync(configPath(env), '{"colour": "always"}');
    await expect(loadConfig(env)).rejects.toMatchObject({ message: expect.stringContaining('no config key "colour"') });
  });
});
