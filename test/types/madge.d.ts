// The part of madge's API the import-graph tests use (madge ships no types).
declare module "madge" {
  interface MadgeResult {
    obj(): Record<string, string[]>;
    circular(): string[][];
    /** `skipped`: imports madge could not resolve to a file. */
    warnings(): { skipped: string[] };
  }
  interface MadgeConfig {
    fileExtensions?: string[];
    tsConfig?: string;
    excludeRegExp?: RegExp[];
    /** Paths in the result are relative to this folder. */
    baseDir?: string;
  }
  export default function madge(paths: string | string[], config?: MadgeConfig): Promise<MadgeResult>;
}
