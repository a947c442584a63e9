// Vite's `?raw` imports (a file's text), which the workerd tests use to compare the READMEs and docs/ with the code.
declare module '*?raw' {
  const text: string;
  export default text;
}
