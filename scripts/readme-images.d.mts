export const root: string;
export const BASELINES: string;
export const README_IMAGES: Record<string, string>;
export function writeReadmeImages(): void;
