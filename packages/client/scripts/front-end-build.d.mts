import type { BuildEnvironmentOptions } from 'vite';

export declare const frontEndBuild: BuildEnvironmentOptions;
