export declare const CLI_PACKAGE_NAME: string;
export declare const CLI_BUNDLES: readonly string[];
export declare function cliManifest(repository: Record<string, unknown>): Record<string, unknown>;
export declare function makeCliPackage(dist?: string, out?: string): string;
export declare function packCliPackage(folder: string, destination: string): string;
