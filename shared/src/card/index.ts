/**
 * Cards as data: the model a card file reads into (`Card`, its ports and where each field sits),
 * the table of card fields (what each is, whether it is required, which vocabulary kind it takes),
 * and the grammar of card references (`id@version`). Below the checks, the analysis, the digests
 * and resolution, which all read cards.
 *
 * Must NOT know: how a card file is parsed or checked (check/), bundles and resolution (bundle/),
 * the file system, editors.
 */
export * from './card-model';
export * from './card-ref';
export { cardFields } from './card-fields';
