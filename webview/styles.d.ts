/** Stylesheets are bundled into the webview scripts as text (see esbuild.mjs). */
declare module '*.css' {
  const text: string;
  export default text;
}
