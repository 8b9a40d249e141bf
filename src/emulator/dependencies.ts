/**
 * The emulator's own dependencies: SQLite (better-sqlite3, a native module), a tokenizer
 * (gpt-tokenizer) and a search index (minisearch). They are optional peer dependencies of the
 * package, so a site owner who installs it for the widget, the client or the handler builds
 * nothing native and downloads none of them (docs/install.md). They are loaded here, when an
 * emulator is created, never when the entry is imported; when one is missing the error names the
 * one command that installs them.
 */
import { createRequire } from 'node:module';

/** Everything only the emulator needs, in the order the install command names them. */
const EMULATOR_DEPENDENCIES = ['better-sqlite3', 'gpt-tokenizer', 'minisearch'] as const;
type EmulatorDependency = (typeof EMULATOR_DEPENDENCIES)[number];

/** The command that installs what the emulator needs next to `chatbot-widget`. */
export const EMULATOR_INSTALL_COMMAND = `npm install ${EMULATOR_DEPENDENCIES.join(' ')}`;

/** Thrown by `createEmulator` (and printed by `chatbot-emulator`) when a dependency is missing. */
export class EmulatorDependencyError extends Error {
  override name = 'EmulatorDependencyError';
  readonly missing: readonly string[];
  constructor(missing: readonly string[]) {
    const names = missing.length > 1 ? `${missing.slice(0, -1).join(', ')} and ${missing.at(-1)}` : missing[0];
    super(
      `the emulator's ${missing.length > 1 ? 'dependencies' : 'dependency'} ${names} ${missing.length > 1 ? 'are' : 'is'} not installed. ` +
        `Install what the emulator needs with: ${EMULATOR_INSTALL_COMMAND}`,
    );
    this.missing = missing;
  }
}

const require = createRequire(import.meta.url);

function isMissing(error: unknown, name: string): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return (code === 'MODULE_NOT_FOUND' || code === 'ERR_MODULE_NOT_FOUND') && String((error as Error).message).includes(name);
}

/** The dependencies that cannot be resolved from here. */
function missingEmulatorDependencies(): EmulatorDependency[] {
  return EMULATOR_DEPENDENCIES.filter((name) => {
    try {
      require.resolve(name);
      return false;
    } catch (error) {
      if (isMissing(error, name)) return true;
      throw error;
    }
  });
}

/** Throws an {@link EmulatorDependencyError} naming every missing dependency and the install command. */
export function assertEmulatorDependencies(): void {
  const missing = missingEmulatorDependencies();
  if (missing.length > 0) throw new EmulatorDependencyError(missing);
}

/**
 * Loads one of the emulator's dependencies synchronously (each ships CommonJS), so
 * `createEmulator` stays synchronous while the entry imports without them.
 */
export function requireEmulatorDependency<T>(specifier: `${EmulatorDependency}${string}`): T {
  const name = EMULATOR_DEPENDENCIES.find((dependency) => specifier === dependency || specifier.startsWith(`${dependency}/`))!;
  try {
    return require(specifier) as T;
  } catch (error) {
    if (isMissing(error, name)) throw new EmulatorDependencyError([name]);
    throw error;
  }
}
