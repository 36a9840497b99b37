declare module 'swagger-ui-dist/absolute-path.js' {
  /** Folder holding the Swagger UI static assets. */
  function getAbsoluteFSPath(): string;
  export default getAbsoluteFSPath;
}
