import { createParamDecorator, SetMetadata, type ExecutionContext } from '@nestjs/common';

/** The signed-in user, as the auth context's guard puts it on the request for every other context. */
export interface AuthenticatedUser {
  id: number;
  email: string;
  name: string | null;
}

export const IS_PUBLIC = 'auth:isPublic';

/** Marks a controller or route as reachable without a session (health, market metrics, sign-in pages). */
export const Public = (): ClassDecorator & MethodDecorator => SetMetadata(IS_PUBLIC, true);

/** Injects the signed-in user into a route handler; controllers never read cookies themselves. */
export const CurrentUser = createParamDecorator((_data: unknown, context: ExecutionContext): AuthenticatedUser => {
  const request = context.switchToHttp().getRequest<{ user?: AuthenticatedUser }>();
  if (request.user === undefined) throw new Error('CurrentUser used on a route without an authenticated user');
  return request.user;
});
