/** A run of code and the Pygments short class it is shown with ("" for plain text). */
export interface Token {
  text: string;
  cls: string;
}

export const isBlank = (token: Token): boolean => /^\s+$/.test(token.text);
