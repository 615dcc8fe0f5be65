/**
 * One module's part of the API's catalogue: the English text the code says, as the key, with its
 * French and Spanish versions (decision 027). English needs no entry: the key is the text.
 */
export type Catalogue = Record<string, { fr: string; es: string }>;
