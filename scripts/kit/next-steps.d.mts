// Types of next-steps.mjs (plain JavaScript: the kit's launcher runs it before anything is built).
export declare function recordProfile(record: string): string | null;
export declare function nextCommands(dir: string, record: string, profile: string | null): [command: string, what: string][];
export declare function nextSteps(dir: string, record: string, profile: string | null): string;
