/**
 * What a program does that its spec (data, rules/programs/<program>.json) cannot say, as code
 * beside the program: src/programs/hooks/<program>.ts. Every member is optional; a program with
 * no hooks is described by its spec alone.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- members are added as programs' code moves here (issue 14)
export interface ProgramHooks {}
