import { access, mkdir, readFile, rm, writeFile, rename } from 'node:fs/promises';
import { constants } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import type { BlobStore, StoredBlob } from './blob-store.js';

const KEY_PATTERN = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9._-]+)*$/;

/**
 * Blobs as files under one root folder. The content type is kept in a sidecar file so objects
 * are served exactly as they were stored. Keys are checked so none can climb out of the root.
 */
export class LocalBlobStore implements BlobStore {
  readonly kind = 'local' as const;
  private readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  async put(key: string, body: Uint8Array, contentType: string): Promise<void> {
    const path = this.pathOf(key);
    await mkdir(dirname(path), { recursive: true });
    // Write then rename, so a reader never sees half an object.
    const temporary = `${path}.${process.pid}.${Date.now()}.tmp`;
    await Promise.all([writeFile(temporary, body), writeFile(`${path}.type`, contentType)]);
    await rename(temporary, path);
  }

  async get(key: string): Promise<StoredBlob | undefined> {
    const path = this.pathOf(key);
    try {
      const [body, contentType] = await Promise.all([readFile(path), readFile(`${path}.type`, 'utf8')]);
      return { body, contentType };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async delete(key: string): Promise<boolean> {
    const path = this.pathOf(key);
    const existed = await access(path, constants.F_OK).then(
      () => true,
      () => false,
    );
    await Promise.all([rm(path, { force: true }), rm(`${path}.type`, { force: true })]);
    return existed;
  }

  publicUrl(): string | undefined {
    return undefined;
  }

  async check(): Promise<void> {
    await mkdir(this.root, { recursive: true });
    await access(this.root, constants.W_OK);
  }

  private pathOf(key: string): string {
    if (!KEY_PATTERN.test(key) || key.split('/').some((part) => part === '..' || part === '.')) {
      throw new Error(`invalid blob key: ${key}`);
    }
    const path = join(this.root, ...key.split('/'));
    if (!path.startsWith(this.root + sep)) throw new Error(`invalid blob key: ${key}`);
    return path;
  }
}
