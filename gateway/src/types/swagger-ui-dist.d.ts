declare module 'swagger-ui-dist' {
  /** Folder holding the Swagger UI static assets. */
  export function getAbsoluteFSPath(): string;
  const swaggerUiDist: { getAbsoluteFSPath(): string };
  export default swaggerUiDist;
}
