/** A minimal `process` for the browser build: the analyser reads the cwd and the environment. */
export const process = {
  env: {} as Record<string, string | undefined>,
  cwd: (): string => '/',
  platform: 'linux',
  versions: {} as Record<string, string>,
};
