// Vite's `?raw` imports (a file's text), which the workerd tests use to compare the README with the code it shows.
declare module '*?raw' {
  const text: string;
  export default text;
}
